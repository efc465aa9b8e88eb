import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * A counter per user, bumped in the same transaction as every write to their products. Anything
 * derived from a catalogue (cached list pages) is valid exactly while the counter is unchanged.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('catalogue_version', dialect === 'postgres' ? 'bigint' : 'integer', (c) =>
      c.notNull().defaultTo(0),
    )
    .execute();
}
