import { sql, type SqlBool } from 'kysely';
import { visibleProduct } from '../../infra/db/visible-products.js';
import { exactSum } from './exact-sum.js';
import { taggedWith, type PageOptions, type ProductQueries, type SummaryPart } from './queries.js';
import { toReorderIn } from './reorder.js';
import { stockCondition } from './stock-filter.js';

/** Which of the rows some locations hold a summary of them adds up. */
export type HeldSumOptions = Pick<PageOptions, 'text' | 'stock' | 'tag'> & {
  locationIds: string[];
  /** Only the products whose id is in [from, to) (either end open when absent). */
  ids?: { from?: string | undefined; to?: string | undefined } | undefined;
};

/**
 * Product ids cut into 16 ranges by their first character (random, or spread by an import): a summary of
 * locations holding many stock rows adds up one range a statement, each product in one of them,
 * so that no statement holds SQLite's event loop for the whole of a warehouse.
 */
export const ID_RANGES = [undefined, ...'123456789abcdef'].map((from, i, starts) => ({
  from,
  to: starts[i + 1],
}));

/** Σ price × units held (or cost × units held), exact: a held summary's value. */
const heldValue = (queries: ProductQueries, cents: 'price_cents' | 'cost_cents') =>
  exactSum(
    queries.dialect,
    cents,
    'held.quantity',
    cents === 'price_cents' ? 'value' : 'valueAtCost',
  );

/**
 * The totals of what some locations hold (one and those under it) among the rows the options
 * keep: each product held there once, its units and their value those it holds there; the stock
 * filter and the reorder count follow each product's own stock, as the list's do. One statement
 * over the locations' stock rows, found by a locations' index, and their products by id
 * (`+catalogue_id` keeps SQLite from walking the catalogue's index instead): its cost is what the
 * locations hold, whatever else the catalogue, or another, holds.
 */
export function heldSummaryQuery(
  queries: ProductQueries,
  catalogueId: string,
  options: HeldSumOptions,
) {
  const { db, dialect } = queries;
  const { text, stock, tag, locationIds, ids } = options;
  const held = db
    .selectFrom('stock_levels')
    .select(['product_id', sql<number>`sum(quantity)`.as('quantity')])
    .where(queries.inLocations(locationIds))
    // Redundant (the locations are the catalogue's), but PostgreSQL sizes the locations' rows by
    // every catalogue's: by the catalogue first (migration 054), a small catalogue's warehouse is
    // not summed by a scan of every tenant's stock. SQLite, without statistics, reads the
    // locations' index.
    .$if(dialect === 'postgres', (query) => query.where('catalogue_id', '=', catalogueId))
    .$if(ids?.from !== undefined, (query) => query.where('product_id', '>=', ids!.from!))
    .$if(ids?.to !== undefined, (query) => query.where('product_id', '<', ids!.to!))
    .groupBy('product_id')
    .as('held');
  let query = db
    .selectFrom(held)
    .innerJoin('products', 'products.id', 'held.product_id')
    .select([
      sql<number>`count(*)`.as('count'),
      sql<number>`coalesce(sum(held.quantity), 0)`.as('units'),
      ...heldValue(queries, 'price_cents').selections,
      sql<number>`count(cost_cents)`.as('costed'),
      ...heldValue(queries, 'cost_cents').selections,
      sql<number>`count(case when ${toReorderIn(catalogueId)} then 1 end)`.as('toReorder'),
    ])
    .where(
      dialect === 'sqlite'
        ? sql<SqlBool>`+products.catalogue_id = ${catalogueId}`
        : sql<SqlBool>`products.catalogue_id = ${catalogueId}`,
    )
    .where(visibleProduct());
  if (text) query = query.where(queries.contains(text));
  if (stock) query = query.where(stockCondition(catalogueId, stock));
  if (tag) query = query.where(taggedWith(catalogueId, tag));
  return query;
}

/** What some locations hold, summed in one statement (heldSummaryQuery). */
export async function heldSum(
  queries: ProductQueries,
  catalogueId: string,
  options: HeldSumOptions,
): Promise<SummaryPart> {
  const row = await heldSummaryQuery(queries, catalogueId, options).executeTakeFirstOrThrow();
  return {
    count: row.count,
    units: row.units,
    costed: row.costed,
    toReorder: row.toReorder,
    valueCents: heldValue(queries, 'price_cents').read(row),
    valueAtCostCents: heldValue(queries, 'cost_cents').read(row),
  };
}
