import type { Kysely } from 'kysely';
import { stockCondition } from '../../products/stock-filter.js';
import { STOCK_FILTERS } from '../../../shared/constants.js';

/** The list orders a stock filter can be combined with, besides stock itself. */
const ORDERS = [
  ['created', 'created_at'],
  ['name', 'name_key'],
  ['price', 'price_cents'],
] as const;

/**
 * The list's stock filters (`low`: 1 to 10 units, `out`: 0) at any catalogue size: for each, a
 * partial (owner, key, id) index per list order that holds only the rows the filter keeps, so a
 * filtered page is one range scan however few products match. Sorted by stock, the filter is a
 * range of the existing (owner, stock, id) index. The queries repeat each index's condition word
 * for word (products/stock-filter.ts): SQLite uses a partial index only for a query that does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const filter of STOCK_FILTERS) {
    for (const [name, column] of ORDERS) {
      await db.schema
        .createIndex(`products_owner_${name}_${filter}`)
        .on('products')
        .columns(['owner_id', column, 'id'])
        .where(stockCondition(filter))
        .execute();
    }
  }
}
