import { sql } from 'kysely';
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
 * A catalogue's turn for membership changes, on PostgreSQL, until the transaction ends: writes
 * take it shared, a change of members exclusive. Row locks alone let overlapping writes keep a
 * member's row share-locked without a gap, and a removal waiting for it could starve for
 * seconds; the lock manager queues these in order, so writes that come after a waiting change
 * wait behind it.
 */
export async function membershipTurn(trx: DB, catalogueId: string, mode: 'shared' | 'exclusive') {
  const key = sql`hashtextextended(${`catalogue-members:${catalogueId}`}, 0)`;
  await (
    mode === 'shared'
      ? sql`select pg_advisory_xact_lock_shared(${key})`
      : sql`select pg_advisory_xact_lock(${key})`
  ).execute(trx);
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
  if (dialect === 'postgres') await membershipTurn(trx, catalogueId, 'shared');
  const row = await trx
    .selectFrom('catalogue_members')
    .select('role')
    .where('catalogue_id', '=', catalogueId)
    .where('user_id', '=', userId)
    .$if(dialect === 'postgres', (query) => query.forShare())
    .executeTakeFirst();
  return row?.role;
}
