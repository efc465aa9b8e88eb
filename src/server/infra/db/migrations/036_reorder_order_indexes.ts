import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * The products to reorder in the order the report shows them, so that a page of the report reads
 * that page and no more, however many products are due.
 *
 * The report lists the furthest below their point first, then by name. By a product's own point,
 * that is `stock - reorder_point` ascending; by the catalogue's point, which every such product
 * shares, it is `stock` ascending. Each part of the rule gets an index in that order (the name key
 * and id after it), holding only the products it is about; they replace migration 032's two
 * indexes of the same parts, which held the same rows in stock order only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index products_reorder_own_order on products
    (catalogue_id, (stock - reorder_point), name_key, id)
    where reorder_point is not null and stock <= reorder_point`.execute(db);
  await db.schema
    .createIndex('products_reorder_default_order')
    .on('products')
    .columns(['catalogue_id', 'stock', 'name_key', 'id'])
    .where(sql<SqlBool>`reorder_point is null`)
    .execute();
  await db.schema.dropIndex('products_reorder_own').execute();
  await db.schema.dropIndex('products_reorder_default').execute();
}
