import { setImmediate } from 'node:timers/promises';
import { MAX_STOCK } from '../../../shared/constants.js';
import type { CatalogueWrite } from '../writes/index.js';
import { lockProducts } from './locks.js';
import { recordMovements, type Movement } from './movements.js';
import { trackReorderCrossings } from './reorder.js';
import { addTo, addUnits, putIn, takeFrom, type UnitChanges } from './stock-levels.js';

/** A counted quantity of a product at a location, from the line of a file. */
export interface CountedLevel {
  line: number;
  productId: string;
  locationId: string;
  quantity: number;
}

/** What a set of counts did, or the lines it could not apply (then nothing was written). */
export type CountsResult =
  | { outcome: 'done'; changed: number; unchanged: number; products: number }
  | { outcome: 'refused'; lines: { line: number; reason: 'gone' | 'above-max' }[] };

/** Products written per batch, a turn of the event loop between batches. */
const BATCH_PRODUCTS = 100;

/** Thrown inside the write to roll back what earlier batches wrote. */
class CountsRefused extends Error {
  constructor(readonly lines: { line: number; reason: 'gone' | 'above-max' }[]) {
    super('counts refused');
  }
}

const key = (productId: string, locationId: string) => `${productId} ${locationId}`;

/**
 * Sets each product's quantity at each location to its count, in the write's transaction: the
 * difference from what it holds there now (read with the product's row locked, PostgreSQL) is
 * recorded as a `counted` movement at that location, the product's stock and the location's units
 * change by it. A row that changes nothing records nothing. Products go in id order, so writes
 * sharing them wait instead of deadlocking; the locations' totals change last, in id order. Any
 * product gone since it was matched, or a stock that would pass MAX_STOCK, refuses the whole.
 * The locations must be the catalogue's (the caller matched them).
 */
export async function setCountedLevels(
  w: CatalogueWrite,
  counts: CountedLevel[],
): Promise<CountsResult> {
  try {
    return await writeCounts(w, counts);
  } catch (error) {
    if (error instanceof CountsRefused) return { outcome: 'refused', lines: error.lines };
    throw error;
  }
}

async function writeCounts(w: CatalogueWrite, counts: CountedLevel[]): Promise<CountsResult> {
  const { trx, catalogueId, now } = w;
  const byProduct = new Map<string, CountedLevel[]>();
  for (const count of counts) {
    const rows = byProduct.get(count.productId);
    if (rows) rows.push(count);
    else byProduct.set(count.productId, [count]);
  }
  const ids = [...byProduct.keys()].sort();
  const units: UnitChanges = new Map();
  let changed = 0;
  const changedProducts = new Set<string>();
  for (let i = 0; i < ids.length; i += BATCH_PRODUCTS) {
    if (i > 0) await setImmediate();
    const batch = ids.slice(i, i + BATCH_PRODUCTS);
    const products = await lockProducts(w, batch).select(['id', 'stock']).execute();
    const stockOf = new Map(products.map((row) => [row.id, row.stock]));
    const gone = batch.filter((id) => !stockOf.has(id));
    if (gone.length > 0) {
      const lines = gone.flatMap((id) => byProduct.get(id)!.map(({ line }) => line));
      throw new CountsRefused(lines.map((line) => ({ line, reason: 'gone' as const })));
    }
    const held = await trx
      .selectFrom('stock_levels')
      .select(['product_id', 'location_id', 'quantity'])
      .where('product_id', 'in', batch)
      .execute();
    const holding = new Map(
      held.map((row) => [key(row.product_id, row.location_id), row.quantity]),
    );
    const gains: { productId: string; locationId: string; quantity: number }[] = [];
    const movements: Movement[] = [];
    for (const productId of batch) {
      const stock = stockOf.get(productId)!;
      let after = stock;
      for (const count of byProduct.get(productId)!) {
        const delta = count.quantity - (holding.get(key(productId, count.locationId)) ?? 0);
        if (delta === 0) continue;
        if (after + delta > MAX_STOCK)
          throw new CountsRefused([{ line: count.line, reason: 'above-max' }]);
        if (delta > 0) gains.push({ productId, locationId: count.locationId, quantity: delta });
        else await takeFrom(trx, productId, count.locationId, -delta);
        addTo(units, count.locationId, delta);
        movements.push({
          productId,
          oldStock: after,
          newStock: after + delta,
          source: 'import',
          reason: 'counted',
          at: now,
          locationId: count.locationId,
        });
        after += delta;
        changed += 1;
      }
      if (after === stock) continue;
      changedProducts.add(productId);
      await trx
        .updateTable('products')
        .set({ stock: after, updated_at: now })
        .where('catalogue_id', '=', catalogueId)
        .where('id', '=', productId)
        .execute();
    }
    await putIn(trx, catalogueId, gains);
    await recordMovements(w, movements);
    await trackReorderCrossings(
      trx,
      catalogueId,
      batch.filter((id) => changedProducts.has(id)),
      now,
    );
  }
  await addUnits(w, units);
  return {
    outcome: 'done',
    changed,
    unchanged: counts.length - changed,
    products: changedProducts.size,
  };
}
