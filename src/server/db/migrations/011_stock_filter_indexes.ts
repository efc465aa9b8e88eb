import { sql, type Kysely, type SqlBool } from 'kysely';
import { STOCK_FILTERS } from '../../../shared/constants.js';
import { stockFilterSql } from '../../products/stock-filter.js';

/** The list orders a stock filter can be combined with, besides stock itself. */
const ORDERS = [
  ['created', 'created_at'],
  ['name', 'name_key'],
  ['price', 'price_cents'],
] as const;

/**
 * The list's stock filters (`low`: 1 to 10 units, `out`: 0) and the summary at any catalogue size.
 *
 * - For each filter, a partial (owner, key, id) index per list order that holds only the rows the
 *   filter keeps, so a filtered page is one range scan however few products match. The queries
 *   repeat each index's condition word for word (products/stock-filter.ts).
 * - The (owner, stock, id) index gains the price: sorted by stock, a filter is a range of it, and
 *   the summary (count, units, price × stock) reads the owner's rows, or a filter's, from it alone
 *   instead of from the table (0.5 s at 100,000 products on SQLite, where the rows are large).
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
