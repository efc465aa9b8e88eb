import { sql, type Kysely, type SqlBool } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Reorder alerts and the daily low-stock digest.
 *
 * `products.reorder_crossed_at`: when the product last crossed to or below its reorder point, null
 * while it is above it. Every write that changes a stock or a point sets or clears it in its own
 * transaction, so a product alerts once per crossing and again only after a restock above its
 * point. Products already at or below their point count as having crossed at their last change.
 *
 * `users.low_stock_digest`: whether the user asked for the daily digest (0/1).
 *
 * `low_stock_digests`: one row per (user, UTC day) a digest was sent, claimed in the transaction
 * that queues its mail: the primary key makes a second claim of the day fail, on any instance.
 *
 * The (catalogue, stock, id) index gains the product's own point, so the summary's count of
 * products to reorder still reads that index alone.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema.alterTable('products').addColumn('reorder_crossed_at', time).execute();
  await sql`update products set reorder_crossed_at = updated_at
    where stock <= coalesce(reorder_point,
      (select c.reorder_point from catalogues c where c.id = products.catalogue_id))`.execute(db);
  // What a digest reads: the crossings of a catalogue since a time.
  await db.schema
    .createIndex('products_catalogue_crossed')
    .on('products')
    .columns(['catalogue_id', 'reorder_crossed_at'])
    .where(sql<SqlBool>`reorder_crossed_at is not null`)
    .execute();

  await db.schema
    .alterTable('users')
    .addColumn('low_stock_digest', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('low_stock_digests')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The UTC day, YYYY-MM-DD.
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('sent_at', time, (c) => c.notNull())
    .addColumn('products', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('low_stock_digests_pkey', ['user_id', 'day'])
    .execute();

  await db.schema.dropIndex('products_owner_stock').execute();
  await db.schema
    .createIndex('products_owner_stock')
    .on('products')
    .columns(['catalogue_id', 'stock', 'id', 'price_cents', 'cost_cents', 'reorder_point'])
    .execute();
}
