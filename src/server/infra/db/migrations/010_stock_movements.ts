import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/** The sources as they were then (migration 012 adds `count`). */
const SOURCES = ['create', 'edit', 'adjustment', 'import'];

/**
 * Every product's stock history: one row per change, written in the change's transaction, deleted
 * with the product (ON DELETE CASCADE; SQLite connections turn `foreign_keys` on). Ids increase,
 * and a product's stock changes one at a time (its row is locked), so (product_id, id) reads its
 * movements in the order they happened, even within one millisecond.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  // SQLite: an INTEGER PRIMARY KEY is the rowid, one more than the largest at every insert.
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  const sources = sql.join(SOURCES.map((source) => sql.lit(source)));
  await db.schema
    .createTable('stock_movements')
    .addColumn('id', serial, (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) =>
      c.notNull().references('products.id').onDelete('cascade'),
    )
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('old_stock', 'integer', (c) => c.notNull())
    .addColumn('new_stock', 'integer', (c) => c.notNull())
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in (${sources})`))
    .addColumn('note', 'text')
    .execute();
  // A product's page of movements, newest first, and the cascade from a deleted product.
  await db.schema
    .createIndex('stock_movements_product')
    .on('stock_movements')
    .columns(['product_id', 'id'])
    .execute();
  // The cascade from a deleted account.
  await db.schema
    .createIndex('stock_movements_owner')
    .on('stock_movements')
    .column('owner_id')
    .execute();
}
