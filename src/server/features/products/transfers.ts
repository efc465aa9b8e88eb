import type { TransferLine } from '../../../shared/schemas/locations/transfers.js';
import type { CatalogueWrite } from '../writes/index.js';
import { lockProducts } from './locks.js';
import { locationsOf } from './row-sets.js';
import { addTo, addUnits, changeQuantities, heldAt, type UnitChanges } from './stock-levels.js';

/** What a move did, or why it did nothing. */
export type TransferResult =
  | {
      outcome: 'done';
      products: { id: string; name: string }[];
      units: number;
      levels: { productId: string; locationId: string; quantity: number }[];
    }
  | { outcome: 'no-product' | 'no-location' }
  | { outcome: 'short'; name: string; locationId: string; held: number; quantity: number };

const key = (productId: string, locationId: string) => `${productId} ${locationId}`;

/**
 * Moves stock between locations, all the lines or none: products' totals never change. Lines are
 * netted by product and location first (a move A→B and B→C of the same units passes through B),
 * then checked against what each location holds, with the products' rows locked in the order of
 * their ids (PostgreSQL), so that moves of the same stock made at once wait for each other and
 * the second sees what the first left. Nothing is written before every line is known to fit.
 */
export async function transferStock(
  w: CatalogueWrite,
  lines: TransferLine[],
): Promise<TransferResult> {
  const { trx, catalogueId } = w;
  const moves = lines.map((line) => ({
    productId: line.productId.toLowerCase(),
    from: line.from.toLowerCase(),
    to: line.to.toLowerCase(),
    quantity: line.quantity,
  }));
  const productIds = [...new Set(moves.map((move) => move.productId))].sort();
  const products = await lockProducts(w, productIds).select(['id', 'name']).execute();
  if (products.length !== productIds.length) return { outcome: 'no-product' };
  const locationIds = [...new Set(moves.flatMap((move) => [move.from, move.to]))];
  const locations = await trx
    .selectFrom('locations')
    .select('id')
    .where('id', 'in', locationIds)
    .where(locationsOf(w.dialect, catalogueId))
    .execute();
  if (locations.length !== locationIds.length) return { outcome: 'no-location' };

  const net = new Map<string, { productId: string; locationId: string; delta: number }>();
  const out = new Map<string, number>();
  const change = (productId: string, locationId: string, delta: number) => {
    const at = net.get(key(productId, locationId));
    if (at) at.delta += delta;
    else net.set(key(productId, locationId), { productId, locationId, delta });
  };
  for (const move of moves) {
    change(move.productId, move.from, -move.quantity);
    change(move.productId, move.to, move.quantity);
    const from = key(move.productId, move.from);
    out.set(from, (out.get(from) ?? 0) + move.quantity);
  }
  const ordered = [...net.values()].sort((a, b) =>
    key(a.productId, a.locationId) < key(b.productId, b.locationId) ? -1 : 1,
  );
  const held = await heldAt(
    w,
    ordered.map(({ productId, locationId }) => [productId, locationId] as const),
  );
  const holding = new Map(held.map((row) => [key(row.product_id, row.location_id), row.quantity]));
  for (const { productId, locationId, delta } of ordered) {
    const there = holding.get(key(productId, locationId)) ?? 0;
    if (there + delta >= 0) continue;
    const name = products.find((product) => product.id === productId)!.name;
    const quantity = out.get(key(productId, locationId)) ?? -delta;
    return { outcome: 'short', name, locationId, held: there, quantity };
  }

  // In a few statements whatever the number of lines: the netted changes as one upsert, the rows
  // emptied, the locations' units (per slice of rows). Their order needs no care: the products
  // are locked above, the locations by the pipeline's catalogue lock (PostgreSQL).
  const changes = ordered.filter((level) => level.delta !== 0);
  await changeQuantities(w, changes);
  const units: UnitChanges = new Map();
  for (const { locationId, delta } of changes) addTo(units, locationId, delta);
  await addUnits(w, units);
  const levels = await trx
    .selectFrom('stock_levels')
    .select(['product_id as productId', 'location_id as locationId', 'quantity'])
    .where('product_id', 'in', productIds)
    .where('quantity', '>', 0)
    .orderBy('product_id')
    .orderBy('location_id')
    .execute();
  const unitsMoved = moves.reduce((sum, move) => sum + move.quantity, 0);
  return { outcome: 'done', products, units: unitsMoved, levels };
}
