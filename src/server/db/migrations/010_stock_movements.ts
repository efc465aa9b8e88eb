import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/** The sources as they were then (migration 012 adds `count`). */
const SOURCES = ['create', 'edit', 'adjustment', 'import'];

/**
 * The history of every product's stock: one row per change (creation, an edit that changed the
 * stock, an adjustment, an import), written in the transaction of the change. Rows go with their
 * product (and with their owner's account): ON DELETE CASCADE, which SQLite enforces because
 * every connection turns `foreign_keys` on (db/sqlite.ts).
 *
 * The id increases with every row, so a product's movements read newest first by (product_id, id)
 * in the order the changes happened, even within one millisecond: a product's stock changes one
 * at a time (its row is locked, or SQLite's writer is), so its ids are handed out in that order.
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
