import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Room for a re-import's updates written after its commit, in short transactions (SQLite).
 *
 * `import_updates`: what a row of an import writes over a matched product (its fields as JSON),
 * staged before the import commits and deleted in the transaction that applies it. `import_applies`:
 * one row per committed import whose staged updates are not all applied yet, with the instant it
 * committed, who wrote it and a lease its applier renews; a row whose lease ran out is an import
 * whose process died after its commit, and the sweep applies the rest. Staged updates whose
 * import is neither pending nor applying are a failed import's and are swept with it. Both tables
 * are keyed so that an import's updates are read in the order of the products' ids. Made only
 * if missing: instances starting together may both run this, one after the other.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('import_updates')
    .ifNotExists()
    .addColumn('import_id', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('fields', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_updates_pkey', ['import_id', 'product_id'])
    .execute();
  await db.schema
    .createTable('import_applies')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('actor_id', 'text')
    .addColumn('committed_at', time, (c) => c.notNull())
    .addColumn('lease_until', time, (c) => c.notNull())
    .execute();
}
