import { LOW_STOCK_THRESHOLD } from '../../../shared/constants.js';
import { isToReorder } from '../../../shared/reorder.js';
import { crossingsOf, type Crossing } from './reorder.js';
import type { ProductInsert } from './rows.js';

const DAY_MS = 86_400_000;

/** Adds cents × units to `into` in the three parts the kept sums hold (products/exact-sum.ts). */
function addParts(into: number[], cents: number, units: number) {
  const [c0, c1, u0, u1] = [
    cents % 65536,
    Math.floor(cents / 65536),
    units % 65536,
    Math.floor(units / 65536),
  ];
  into[0]! += c0 * u0;
  into[1]! += c0 * u1 + c1 * u0;
  into[2]! += c1 * u1;
}

const TOTALS_PARTS = ['all', 'low', 'out', 'reorder'] as const;
type TotalsPart = (typeof TOTALS_PARTS)[number];
type Sum = {
  count: number;
  units: number;
  costed: number;
  to_reorder: number;
  value: number[];
  cost: number[];
};
export type Totals = Map<TotalsPart, Sum>;

const emptyTotals = (): Totals =>
  new Map(
    TOTALS_PARTS.map((part) => [
      part,
      { count: 0, units: 0, costed: 0, to_reorder: 0, value: [0, 0, 0], cost: [0, 0, 0] },
    ]),
  );

/** Adds a product to a sum of the catalogue's totals. */
function addToSum(sum: Sum, row: ProductInsert, toReorder: boolean) {
  sum.count += 1;
  sum.units += row.stock;
  if (row.cost_cents !== null) sum.costed += 1;
  if (toReorder) sum.to_reorder += 1;
  addParts(sum.value, row.price_cents, row.stock);
  addParts(sum.cost, row.cost_cents ?? 0, row.stock);
}

/** Adds a product to each part of `totals` it belongs to (migration 032's rules). */
function addToTotals(totals: Totals, row: ProductInsert, toReorder: boolean) {
  addToSum(totals.get('all')!, row, toReorder);
  if (row.stock >= 1 && row.stock <= LOW_STOCK_THRESHOLD) {
    addToSum(totals.get('low')!, row, toReorder);
  }
  if (row.stock === 0) addToSum(totals.get('out')!, row, toReorder);
  if (toReorder) addToSum(totals.get('reorder')!, row, toReorder);
}

/**
 * What a staged import's new products add up to: the catalogue's totals, those of the default
 * location (the products holding stock there), each day's units and value, the units in all, and
 * the crossings of reorder points to announce. An import's sums stay far below 2^53 (50,000 rows
 * of at most 2^32 per part).
 */
export interface StagedSums {
  /** The catalogue's reorder point the rows were judged by: null once two batches' differed. */
  point: number | null | undefined;
  totals: Totals;
  held: Totals;
  days: Map<number, { units: number; value: number[] }>;
  units: number;
  crossings: Crossing[];
}

export const emptySums = (): StagedSums => ({
  point: undefined,
  totals: emptyTotals(),
  held: emptyTotals(),
  days: new Map(),
  units: 0,
  crossings: [],
});

/**
 * Adds a staged batch to `sums`, judged by the catalogue's reorder point `point` as its rows were
 * marked (`crossed`: those of them that crossed it). Summed as each batch is staged, between turns
 * of the event loop, the publish that holds the write lock has nothing left to walk row by row.
 */
export function addBatch(
  sums: StagedSums,
  rows: readonly ProductInsert[],
  point: number,
  crossed: readonly Crossing[],
) {
  sums.point = sums.point === undefined || sums.point === point ? point : null;
  for (const row of rows) {
    const toReorder = isToReorder(row.stock, row.reorder_point, point);
    addToTotals(sums.totals, row, toReorder);
    // Its stock is in the default location, where it is above 0.
    if (row.stock > 0) addToTotals(sums.held, row, toReorder);
    // Its one movement, from 0 to its stock, on the day it was created.
    const day = Math.floor(row.created_at / DAY_MS);
    let sum = sums.days.get(day);
    if (!sum) sums.days.set(day, (sum = { units: 0, value: [0, 0, 0] }));
    sum.units += row.stock;
    addParts(sum.value, row.price_cents, row.stock);
    sums.units += row.stock;
  }
  for (const crossing of crossed) sums.crossings.push(crossing);
}

/**
 * The sums of a staged import judged by `point`, the catalogue's reorder point at its publish:
 * those made while it was staged (none if it staged no row), unless the point moved since or
 * between its batches, when its rows are summed again.
 */
export function sumsAt(staged: { sums: StagedSums; rows: ProductInsert[][] }, point: number) {
  if (staged.sums.point === point || staged.sums.point === undefined) return staged.sums;
  const again = emptySums();
  for (const batch of staged.rows) addBatch(again, batch, point, crossingsOf(batch, point));
  return again;
}
