import { sql, type Kysely, type SqlBool } from 'kysely';
import { STOCK_FILTERS } from '../../../../shared/constants.js';
import { stockFilterSql } from '../../../features/products/index.js';

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
  for (const filter of STOCK_FILTERS) {
    for (const [name, column] of ORDERS) {
      await db.schema
        .createIndex(`products_owner_${name}_${filter}`)
        .on('products')
        .columns(['owner_id', column, 'id'])
        .where(sql<SqlBool>`${sql.raw(stockFilterSql.partial[filter])}`)
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
