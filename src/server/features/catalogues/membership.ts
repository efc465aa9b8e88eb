import type { CatalogueRole } from '../../../shared/catalogue-roles.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';

/** What every route of a catalogue answers a non-member, whether or not the catalogue exists. */
export const CATALOGUE_NOT_FOUND = 'Catalogue not found';

/** The caller's role in a catalogue and what the request needs of it; undefined for a non-member. */
export async function findMembership(db: DB, catalogueId: string, userId: string) {
  const row = await db
    .selectFrom('catalogue_members')
    .innerJoin('catalogues', 'catalogues.id', 'catalogue_members.catalogue_id')
    .select(['catalogue_members.role', 'catalogues.personal', 'catalogues.version'])
    .where('catalogue_members.catalogue_id', '=', catalogueId)
    .where('catalogue_members.user_id', '=', userId)
    .executeTakeFirst();
  return row && { role: row.role, personal: row.personal === 1, version: Number(row.version) };
}

/**
 * The caller's role, read inside a write's transaction. On PostgreSQL the row is locked FOR
 * SHARE until the commit: a removal or role change (which updates or deletes it) waits for the
 * write, and a write that comes after one that committed finds it gone or changed. SQLite runs
 * one write transaction at a time, so its read is as good.
 */
export async function lockMembership(
  trx: DB,
  dialect: MigrationDialect,
  catalogueId: string,
  userId: string,
): Promise<CatalogueRole | undefined> {
  const row = await trx
    .selectFrom('catalogue_members')
    .select('role')
    .where('catalogue_id', '=', catalogueId)
    .where('user_id', '=', userId)
    .$if(dialect === 'postgres', (query) => query.forShare())
    .executeTakeFirst();
  return row?.role;
}
