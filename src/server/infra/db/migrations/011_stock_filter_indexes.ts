import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Each stock filter's partial-index condition as the list queries wrote it then, frozen here (a
 * migration never follows the app's code): `stock + 0 …` is no range of any index, so SQLite
 * reads the partial index in the list's order.
 */
const PARTIAL = { low: 'stock + 0 between 1 and 10', out: 'stock + 0 = 0' } as const;

/** The list orders a stock filter can be combined with, besides stock itself. */
const ORDERS = [
  ['created', 'created_at'],
  ['name', 'name_key'],
  ['price', 'price_cents'],
] as const;

/**
 * The stock filters (`low`: 1 to 10, `out`: 0) and the summary at any catalogue size: per filter
 * and list order, a partial (owner, key, id) index of the rows it keeps, so a filtered page is one
 * range scan (the queries repeat each condition word for word, products/stock-filter.ts); and the
 * (owner, stock, id) index gains the price, so the summary reads that index alone, not the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const filter of ['low', 'out'] as const) {
    for (const [name, column] of ORDERS) {
      await db.schema
        .createIndex(`products_owner_${name}_${filter}`)
        .on('products')
        .columns(['owner_id', column, 'id'])
        .where(sql<SqlBool>`${sql.raw(PARTIAL[filter])}`)
        .execute();
    }
  }
  await db.schema.dropIndex('products_owner_stock').execute();
  await db.schema
    .createIndex('products_owner_stock')
    .on('products')
    .columns(['owner_id', 'stock', 'id', 'price_cents'])
    .execute();
}
