import type { Kysely } from 'kysely';

/**
 * What the stock reports read. A catalogue's movements in time order, with the product and the
 * delta in the index itself. A product's movements by time, with the delta: the stock over time
 * and the top movers add up each product's range of them, and the dead stock asks whether one
 * moved since a date, all from the index alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('stock_movements_catalogue_time')
    .on('stock_movements')
    .columns(['catalogue_id', 'created_at', 'product_id', 'delta'])
    .execute();
  await db.schema
    .createIndex('stock_movements_product_time')
    .on('stock_movements')
    .columns(['product_id', 'created_at', 'delta'])
    .execute();
}
