import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Stock per location: `stock_levels` holds a product's quantity in each location where it has
 * some (a row at 0 is deleted), and a product's `stock` stays their sum, kept so by the writes
 * that change either in one transaction. `locations.units` is what a location holds itself, kept
 * by the same writes, so that the tree's totals are read without summing its products. A movement
 * names the location it changed (null on those recorded before).
 *
 * All stock that exists is put in its catalogue's default location (the location whose id is the
 * catalogue's). The migration runner applies this once under its lock on either engine, so
 * instances that start together cannot put it there twice.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const units = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('stock_levels')
    .addColumn('product_id', 'text', (c) =>
      c.notNull().references('products.id').onDelete('cascade'),
    )
    .addColumn('location_id', 'text', (c) => c.notNull().references('locations.id'))
    .addColumn('catalogue_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('stock_levels_pk', ['product_id', 'location_id'])
    .execute();
  // What a location holds, product by product: its page, a move of all of it, the list's filter.
  await db.schema
    .createIndex('stock_levels_location')
    .on('stock_levels')
    .columns(['location_id', 'product_id'])
    .execute();
  await db.schema
    .alterTable('locations')
    .addColumn('units', units, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('stock_movements').addColumn('location_id', 'text').execute();

  await sql`insert into stock_levels (product_id, location_id, catalogue_id, quantity)
    select id, catalogue_id, catalogue_id, stock from products where stock > 0`.execute(db);
  await sql`update locations set units = (
      select coalesce(sum(stock), 0) from products where products.catalogue_id = locations.id)
    where id = catalogue_id`.execute(db);
}
