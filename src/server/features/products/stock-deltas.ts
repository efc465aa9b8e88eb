import { sql } from 'kysely';
import { MAX_STOCK, type StockReason } from '../../../shared/constants.js';
import type { CatalogueWrite } from '../writes/index.js';
import { recordMovements, type Movement } from './movements.js';
import { trackReorderCrossings } from './reorder.js';
import { addTo, addUnits, putIn, type UnitChanges } from './stock-levels.js';

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

/** Rows per statement: a few values each, well under either engine's limit on bound parameters. */
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
  const { trx, catalogueId, actorId, now } = w;
  const wanted = deltas.filter((d) => d.delta !== 0);
  const products = new Map<string, { name: string; stock: number }>();
  const held = new Map<string, number>();
  const locations = new Set<string>();
  for (let i = 0; i < wanted.length; i += BATCH_ROWS) {
    const batch = wanted.slice(i, i + BATCH_ROWS);
    const ids = [...new Set(batch.map((d) => d.productId))];
    const rows = await trx
      .selectFrom('products')
      .select(['id', 'name', 'stock'])
      .where('catalogue_id', '=', catalogueId)
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) products.set(row.id, { name: row.name, stock: row.stock });
    const places = [...new Set(batch.map((d) => d.locationId))];
    const found = await trx
      .selectFrom('locations')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .where('id', 'in', places)
      .execute();
    for (const { id } of found) locations.add(id);
    const levels = await trx
      .selectFrom('stock_levels')
      .select(['product_id', 'location_id', 'quantity'])
      .where('product_id', 'in', ids)
      .where('location_id', 'in', places)
      .execute();
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

  // Quantities: an upsert adds each change (a decrease lands on a row that holds enough), then
  // the rows left at 0 go, as every write of stock leaves none.
  await putIn(
    trx,
    catalogueId,
    applied.map(({ productId, locationId, delta }) => ({ productId, locationId, quantity: delta })),
  );
  const changedIds = [...totals.keys()];
  for (let i = 0; i < changedIds.length; i += BATCH_ROWS) {
    const ids = changedIds.slice(i, i + BATCH_ROWS);
    await trx
      .deleteFrom('stock_levels')
      .where('product_id', 'in', ids)
      .where('quantity', '=', 0)
      .execute();
    const byId = sql.join(
      ids.map((id) => sql`when ${id} then cast(${totals.get(id)!} as integer)`),
      sql` `,
    );
    await trx
      .updateTable('products')
      .set({ stock: sql`stock + (case id ${byId} end)`, updated_at: now })
      .where('catalogue_id', '=', catalogueId)
      .where('id', 'in', ids)
      .execute();
  }
  const units: UnitChanges = new Map();
  for (const { locationId, delta } of applied) addTo(units, locationId, delta);
  await addUnits(trx, catalogueId, units);

  const running = new Map([...products].map(([id, { stock }]) => [id, stock]));
  const movements: Movement[] = applied.map(({ productId, locationId, delta }) => {
    const oldStock = running.get(productId)!;
    running.set(productId, oldStock + delta);
    return {
      productId,
      oldStock,
      newStock: oldStock + delta,
      source: 'count',
      reason: how.reason,
      note: how.note,
      at: now,
      locationId,
      countId: how.countId,
    };
  });
  await recordMovements(trx, catalogueId, actorId, movements);
  await trackReorderCrossings(trx, catalogueId, changedIds, now);
  return { outcome: 'done', applied };
}
