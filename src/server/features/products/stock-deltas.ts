import { setImmediate } from 'node:timers/promises';
import { MAX_STOCK, type StockReason } from '../../../shared/constants.js';
import type { CatalogueWrite } from '../writes/index.js';
import { onReorderPointsReached } from './reorder.js';
import { addUnits, changeQuantities, heldAt } from './stock-levels.js';
import { changeStocks, insertMovements, type MovementLine } from './stock-sets.js';

/** A change of one product's quantity at one location. */
export interface StockDelta {
  productId: string;
  locationId: string;
  delta: number;
}

/** What the deltas did, or why they did nothing. */
export type DeltasResult =
  | { outcome: 'done'; applied: StockDelta[] }
  | { outcome: 'short'; name: string; locationId: string }
  | { outcome: 'above-max'; name: string }
  | { outcome: 'no-location' };

/** Rows per read: a few values each, well under either engine's limit on bound parameters. */
const BATCH_ROWS = 500;

const key = (productId: string, locationId: string) => `${productId} ${locationId}`;

/**
 * Applies many changes of quantities at locations in a few statements whatever their number (a
 * count's posting, its undo): every product's stock and every location's units follow, each
 * change is a movement of its product at its location. A decrease a location cannot cover is
 * cut to what it holds (`short: 'cut'`, a count: stock sold during it stays sold) or refuses the
 * whole (`short: 'refuse'`, an undo). Runs in a write of the pipeline, whose catalogue lock makes
 * the quantities read here the ones changed (PostgreSQL; SQLite writes one at a time).
 */
export async function applyStockDeltas(
  w: CatalogueWrite,
  deltas: StockDelta[],
  how: {
    short: 'cut' | 'refuse';
    reason: StockReason | null;
    note: string | null;
    countId: string;
  },
): Promise<DeltasResult> {
  const { trx, catalogueId } = w;
  const wanted = deltas.filter((d) => d.delta !== 0);
  const products = new Map<string, { name: string; stock: number; crossedAt: number | null }>();
  const held = new Map<string, number>();
  const locations = new Set<string>();
  for (let i = 0; i < wanted.length; i += BATCH_ROWS) {
    if (i > 0) await setImmediate();
    const batch = wanted.slice(i, i + BATCH_ROWS);
    const ids = [...new Set(batch.map((d) => d.productId))];
    const rows = await trx
      .selectFrom('products')
      .select(['id', 'name', 'stock', 'reorder_crossed_at'])
      .where('catalogue_id', '=', catalogueId)
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) {
      products.set(row.id, { name: row.name, stock: row.stock, crossedAt: row.reorder_crossed_at });
    }
    const places = [...new Set(batch.map((d) => d.locationId))];
    const found = await trx
      .selectFrom('locations')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .where('id', 'in', places)
      .execute();
    for (const { id } of found) locations.add(id);
    const levels = await heldAt(
      w,
      batch.map((d) => [d.productId, d.locationId] as const),
    );
    for (const level of levels) held.set(key(level.product_id, level.location_id), level.quantity);
  }

  const applied: StockDelta[] = [];
  const totals = new Map<string, number>();
  for (const d of wanted) {
    const product = products.get(d.productId);
    // A product deleted since has nothing left to change.
    if (!product) continue;
    if (!locations.has(d.locationId)) {
      if (how.short === 'refuse') return { outcome: 'no-location' };
      continue;
    }
    const there = held.get(key(d.productId, d.locationId)) ?? 0;
    let delta = d.delta;
    if (there + delta < 0) {
      if (how.short === 'refuse') {
        return { outcome: 'short', name: product.name, locationId: d.locationId };
      }
      delta = -there;
    }
    if (delta === 0) continue;
    held.set(key(d.productId, d.locationId), there + delta);
    totals.set(d.productId, (totals.get(d.productId) ?? 0) + delta);
    applied.push({ productId: d.productId, locationId: d.locationId, delta });
  }
  for (const [id, total] of totals) {
    const product = products.get(id)!;
    if (product.stock + total > MAX_STOCK) return { outcome: 'above-max', name: product.name };
  }
  if (applied.length === 0) return { outcome: 'done', applied };
  await writeDeltas(w, applied, products, totals, how);
  return { outcome: 'done', applied };
}

/**
 * The statements of the changes checked: quantities, products (their stock, when they last
 * moved, their reorder marks), locations' units, movements. Each a statement per WRITE_ROWS
 * rows, whatever the catalogue's size: the rows are a table of the statement, joined to what
 * they change down its key.
 */
async function writeDeltas(
  w: CatalogueWrite,
  applied: StockDelta[],
  products: Map<string, { name: string; stock: number; crossedAt: number | null }>,
  totals: Map<string, number>,
  how: { reason: StockReason | null; note: string | null; countId: string },
) {
  await changeQuantities(w, applied);
  const crossed = await changeStocks(w, [...totals], (id) => products.get(id)!.crossedAt !== null);
  const units = new Map<string, number>();
  for (const { locationId, delta } of applied)
    units.set(locationId, (units.get(locationId) ?? 0) + delta);
  await addUnits(w, units);

  const running = new Map([...products].map(([id, { stock }]) => [id, stock]));
  const movements = applied.map(({ productId, locationId, delta }): MovementLine => {
    const oldStock = running.get(productId)!;
    running.set(productId, oldStock + delta);
    return [productId, locationId, oldStock, oldStock + delta];
  });
  await insertMovements(w, movements, { source: 'count', ...how });
  await onReorderPointsReached(w.trx, w.catalogueId, crossed, w.now);
}
