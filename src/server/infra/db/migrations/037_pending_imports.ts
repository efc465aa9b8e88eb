import { sql, type Kysely, type SqlBool } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Room for an import written in short transactions, invisible until it is published.
 *
 * `pending_imports`: one row per import still being written, with a lease its writer renews; a
 * row whose lease ran out is an import whose process died. `products.import_id` names the import
 * that wrote a product (null for every other write). Every read of products keeps a row only if
 * its import is not pending (infra/db/visible-products.ts), so publishing an import is deleting
 * its one row, and no product row is written again. The partial index finds an import's rows
 * (to add them up, or to sweep a failed one) and holds nothing once none are left.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('pending_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('lease_until', time, (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('products').addColumn('import_id', 'text').execute();
  await db.schema
    .createIndex('products_import')
    .on('products')
    .column('import_id')
    .where(sql<SqlBool>`import_id is not null`)
    .execute();
}
