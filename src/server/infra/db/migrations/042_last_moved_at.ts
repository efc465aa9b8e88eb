import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * When each product last moved, kept on the product, so that the dead stock (products with stock
 * and no movement since a cutoff, nor created since) is read from an index in its order instead
 * of asking each product with stock about its movements.
 *
 * `products.last_moved_at`: the latest `created_at` of its movements after its creation, null
 * without one (a movement at the creation, as every new product's is, changes nothing the report
 * reads, so a create or an import of new products does not write its products twice). A trigger
 * on `stock_movements` raises it in the transaction of every movement recorded, restored ones too
 * (a movement dated earlier than the kept one, from a clock set back, leaves it). Movements are
 * never deleted but with their product.
 *
 * `products_idle`: the products with stock of a catalogue by when they were last moved or else
 * created (the later of the two), then name and id: the report's order, its cutoff a range.
 */

/** When a product last moved or was created: what the dead stock sorts and cuts by. */
const IDLE = 'case when last_moved_at > created_at then last_moved_at else created_at end';

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  await db.schema.alterTable('products').addColumn('last_moved_at', 'bigint').execute();
  if (dialect === 'sqlite') {
    await sql`create trigger products_last_moved after insert on stock_movements begin
      update products set last_moved_at = new.created_at
      where id = new.product_id and new.created_at > created_at
        and (last_moved_at is null or last_moved_at < new.created_at); end`.execute(db);
  } else {
    await sql`create or replace function products_last_moved() returns trigger
      language plpgsql as $$ begin
        update products p set last_moved_at = m.at
        from (select product_id, max(created_at) as at from new_rows group by product_id) m
        where p.id = m.product_id and m.at > p.created_at
          and (p.last_moved_at is null or p.last_moved_at < m.at);
        return null; end $$`.execute(db);
    await sql`create trigger products_last_moved after insert on stock_movements
      referencing new table as new_rows
      for each statement execute function products_last_moved()`.execute(db);
  }
  // The movements already recorded, once, with the trigger in place.
  await sql`update products set last_moved_at = (select max(m.created_at) from stock_movements m
    where m.product_id = products.id)
    where exists (select 1 from stock_movements m
      where m.product_id = products.id and m.created_at > products.created_at)`.execute(db);
  await sql`create index products_idle on products
    (catalogue_id, (${sql.raw(IDLE)}), name_key, id) where stock > 0`.execute(db);
}
