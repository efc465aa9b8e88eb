import { MAX_STOCK } from '../../../shared/constants.js';
import type { CatalogueWrite } from '../writes/index.js';
import { lockProducts } from './locks.js';
import { onReorderPointsReached } from './reorder.js';
import { eachSlice } from './row-sets.js';
import { addTo, addUnits, changeQuantities, heldAt, type UnitChanges } from './stock-levels.js';
import { changeStocks, insertMovements, type MovementLine } from './stock-sets.js';

/** A counted quantity of a product at a location, from the line of a file. */
export interface CountedLevel {
  line: number;
  productId: string;
  locationId: string;
  quantity: number;
}

type Refusal = { line: number; reason: 'gone' | 'above-max' };

/** What a set of counts did, or the lines it could not apply (then nothing was written). */
export type CountsResult =
  | { outcome: 'done'; changed: number; unchanged: number; products: number }
  | { outcome: 'refused'; lines: Refusal[] };

const key = (productId: string, locationId: string) => `${productId} ${locationId}`;

/**
 * Sets each product's quantity at each location to its count, in the write's transaction: the
 * difference from what it holds there now (read with the product's row locked, PostgreSQL) is
 * recorded as a `counted` movement at that location, the product's stock and the location's units
 * change by it. A row that changes nothing records nothing. Products are read in id order, so
 * writes sharing them wait instead of deadlocking. Products gone since they were matched refuse
 * the whole (each of their lines named), else the first line whose stock would pass MAX_STOCK;
 * nothing is written before every line is known to fit. Then a few statements per slice of rows,
 * whatever their number, as a count's posting writes. The locations must be the catalogue's (the
 * caller matched them).
 */
export async function setCountedLevels(
  w: CatalogueWrite,
  counts: CountedLevel[],
): Promise<CountsResult> {
  const { trx, dialect } = w;
  const byProduct = new Map<string, CountedLevel[]>();
  for (const count of counts) {
    const rows = byProduct.get(count.productId);
    if (rows) rows.push(count);
    else byProduct.set(count.productId, [count]);
  }
  const ids = [...byProduct.keys()].sort();
  const products = new Map<string, { stock: number; marked: boolean }>();
  await eachSlice(dialect, ids, async (slice) => {
    const rows = await lockProducts(w, slice)
      .select(['id', 'stock', 'reorder_crossed_at'])
      .execute();
    for (const row of rows)
      products.set(row.id, { stock: row.stock, marked: row.reorder_crossed_at !== null });
  });
  const gone = ids.filter((id) => !products.has(id));
  if (gone.length > 0) {
    const lines = gone.flatMap((id) => byProduct.get(id)!.map(({ line }) => line));
    return { outcome: 'refused', lines: lines.map((line) => ({ line, reason: 'gone' })) };
  }

  const places = ids.flatMap((id) =>
    byProduct.get(id)!.map(({ locationId }) => [id, locationId] as const),
  );
  const holding = new Map(
    (await heldAt(w, places)).map((row) => [key(row.product_id, row.location_id), row.quantity]),
  );
  const changes: { productId: string; locationId: string; delta: number }[] = [];
  const movements: MovementLine[] = [];
  const totals: [string, number][] = [];
  const units: UnitChanges = new Map();
  for (const productId of ids) {
    const { stock } = products.get(productId)!;
    let after = stock;
    for (const { line, locationId, quantity } of byProduct.get(productId)!) {
      const delta = quantity - (holding.get(key(productId, locationId)) ?? 0);
      if (delta === 0) continue;
      if (after + delta > MAX_STOCK)
        return { outcome: 'refused', lines: [{ line, reason: 'above-max' }] };
      changes.push({ productId, locationId, delta });
      addTo(units, locationId, delta);
      movements.push([productId, locationId, after, after + delta]);
      after += delta;
    }
    if (after !== stock) totals.push([productId, after - stock]);
  }

  if (changes.length > 0) {
    await changeQuantities(w, changes);
    const crossed = await changeStocks(w, totals, (id) => products.get(id)!.marked);
    await addUnits(w, units);
    await insertMovements(w, movements, {
      source: 'import',
      reason: 'counted',
      note: null,
      countId: null,
    });
    await onReorderPointsReached(trx, w.catalogueId, crossed, w.now);
  }
  return {
    outcome: 'done',
    changed: changes.length,
    unchanged: counts.length - changes.length,
    products: totals.length,
  };
}
