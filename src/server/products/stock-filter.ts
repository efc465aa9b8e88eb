import { sql, type SqlBool } from 'kysely';
import { LOW_STOCK_THRESHOLD, type StockFilter } from '../../shared/constants.js';

/**
 * The condition of each stock filter, as constant SQL: the partial indexes of migration 011 carry
 * exactly this text, and SQLite uses a partial index only when the query holds its condition as
 * written (no parameters, no algebra).
 */
export const stockFilterSql: Record<StockFilter, string> = {
  low: `stock between 1 and ${LOW_STOCK_THRESHOLD}`,
  out: 'stock = 0',
};

export const stockCondition = (filter: StockFilter) =>
  sql<SqlBool>`${sql.raw(stockFilterSql[filter])}`;
