import { sql } from 'kysely';
import type { MovementSource, StockReason } from '../../../shared/constants.js';
import type { CatalogueWrite } from '../writes/index.js';
import { lastMovedAtOnceMovedAt } from './movements.js';
import { crossedAtOnceStockIs, pointThatApplies, type Crossing } from './reorder.js';
import { catalogueOf, eachSlice, rowsTable, type Column } from './row-sets.js';

/*
 * Products' stock and its movements written for many products at once (a count's posting, a
 * stock import): a statement per slice of rows whatever their number, the rows a table of the
 * statement joined to what they change down its key.
 */

const TOTALS: readonly Column[] = [
  ['id', 'text'],
  ['delta', 'integer'],
];

/**
 * Adds each product's total change to its stock, with what follows from it on the same row: its
 * `updated_at`, its `last_moved_at` as the movements' trigger would set it (migration 042: so
 * that trigger finds nothing left to write, and each row and its indexes are written once, not
 * twice) and its reorder mark (trackReorderCrossings' rule). `markedBefore` tells the products
 * marked before the change: those keep their time and were announced then. Returns the others
 * now marked.
 */
export async function changeStocks(
  { trx, dialect, catalogueId, now }: CatalogueWrite,
  totals: readonly [id: string, delta: number][],
  markedBefore: (id: string) => boolean,
): Promise<Crossing[]> {
  const crossed: Crossing[] = [];
  await eachSlice(dialect, totals, async (slice) => {
    const { rows } = await sql<Crossing & { reorder_crossed_at: number | null }>`update products
      set stock = stock + d.delta, updated_at = ${now},
        last_moved_at = ${lastMovedAtOnceMovedAt(sql`cast(${now} as bigint)`)},
        reorder_crossed_at = ${crossedAtOnceStockIs(catalogueId, sql`(stock + d.delta)`, now)}
      from ${rowsTable(dialect, TOTALS, slice)} as d
      where ${catalogueOf(dialect, 'products')} = ${catalogueId} and products.id = d.id
      returning products.id, products.name, products.stock, products.reorder_crossed_at,
        ${pointThatApplies(catalogueId)} as point`.execute(trx);
    for (const { reorder_crossed_at: marked, ...row } of rows)
      if (marked !== null && !markedBefore(row.id)) crossed.push(row);
  });
  return crossed;
}

/** A movement's row: its product and location, its stock before and after. */
export type MovementLine = [
  productId: string,
  locationId: string,
  oldStock: number,
  newStock: number,
];

const MOVEMENTS: readonly Column[] = [
  ['product_id', 'text'],
  ['location_id', 'text'],
  ['old_stock', 'integer'],
  ['new_stock', 'integer'],
];

/** Records the movements, in their order, all made by the write's actor at its time, alike. */
export async function insertMovements(
  { trx, dialect, catalogueId, actorId, now }: CatalogueWrite,
  movements: readonly MovementLine[],
  how: {
    source: MovementSource;
    reason: StockReason | null;
    note: string | null;
    countId: string | null;
  },
) {
  // Cast, as PostgreSQL types a select's parameters as text.
  await eachSlice(dialect, movements, (slice) =>
    sql`insert into stock_movements (product_id, catalogue_id, actor_id, created_at,
        old_stock, new_stock, delta, source, note, reason, location_id, count_id)
      select d.product_id, ${catalogueId}, cast(${actorId} as text), cast(${now} as bigint),
        d.old_stock, d.new_stock, d.new_stock - d.old_stock, cast(${how.source} as text),
        cast(${how.note} as text), cast(${how.reason} as text), d.location_id,
        cast(${how.countId} as text)
      from ${rowsTable(dialect, MOVEMENTS, slice)} as d order by d.n`.execute(trx),
  );
}
