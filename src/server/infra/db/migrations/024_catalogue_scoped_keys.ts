import type { Kysely } from 'kysely';

/**
 * Keys that lead with the catalogue, so that a statement naming a catalogue and some of its rows
 * reads those rows only, whatever the planner knows of the data (SQLite keeps no statistics):
 * - products by (catalogue, id): a statement on a few ids of a catalogue probes each of them,
 *   where SQLite read the catalogue's whole stock index for more than one id;
 * - a product's movements by (catalogue, product, id), with or without a reason: a page of them,
 *   or a deleted product's history, reads that product's movements only, where SQLite read the
 *   catalogue's (by the index of the catalogue alone, dropped here with the ones these replace).
 * A product's movements by time (022) still serve the reports and the delete of a product.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('products_catalogue_id')
    .on('products')
    .columns(['catalogue_id', 'id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('stock_movements_catalogue_product')
    .on('stock_movements')
    .columns(['catalogue_id', 'product_id', 'id'])
    .execute();
  await db.schema
    .createIndex('stock_movements_catalogue_product_reason')
    .on('stock_movements')
    .columns(['catalogue_id', 'product_id', 'reason', 'id'])
    .execute();
  for (const name of [
    'stock_movements_owner',
    'stock_movements_product',
    'stock_movements_product_reason',
  ]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
