import { sql, type RawBuilder } from 'kysely';
import { MAX_STOCK } from '../../../shared/constants.js';
import type { CatalogueWrite } from '../writes/index.js';
import { lastMovedAtOnceMovedAt, recordMovements } from './movements.js';
import { crossedAtOnceStockIs, onReorderPointsReached, pointThatApplies } from './reorder.js';
import { COLUMNS, UUID, type Adjustment, type ProductRow, type StockChange } from './rows.js';
import {
  addUnits,
  isLocationOf,
  putIn,
  quantityAt,
  setQuantity,
  takeFrom,
} from './stock-levels.js';
import { visibleProduct } from '../../infra/db/visible-products.js';

/** Where a change of stock applies: a location of the catalogue, or its default one. */
interface AtLocation {
  locationId?: string | undefined;
}

/**
 * The product's stock, its row locked until the commit (PostgreSQL; SQLite runs one write
 * transaction at a time), and the location the change applies to, checked; or why not.
 */
async function lockForChange(w: CatalogueWrite, id: string, at: AtLocation) {
  if (!UUID.test(id)) return { outcome: 'missing' } as const;
  const { trx, catalogueId } = w;
  const current = await trx
    .selectFrom('products')
    .select(['stock', 'reorder_crossed_at'])
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', id)
    .where(visibleProduct())
    .$if(w.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
  if (!current) return { outcome: 'missing' } as const;
  const locationId = at.locationId ?? catalogueId;
  if (!(await isLocationOf(trx, catalogueId, locationId)))
    return { outcome: 'no-location' } as const;
  const marked = current.reorder_crossed_at !== null;
  return { outcome: 'locked', stock: current.stock, marked, locationId } as const;
}

/**
 * Writes the product's new stock (`stock`, over its columns as they are) with what follows from
 * it on the same row: when it last moved and its reorder mark, as the movements' trigger and
 * trackReorderCrossings would leave them, so the row and its indexes are written once, not up to
 * three times (on PostgreSQL every index of a product is written again with each version of its
 * row, its search key's trigrams too). A product newly marked is announced. Returns the row.
 */
async function writeStock(
  w: CatalogueWrite,
  id: string,
  stock: RawBuilder<number>,
  markedBefore: boolean,
): Promise<ProductRow> {
  const { trx, catalogueId, now } = w;
  const {
    point,
    reorder_crossed_at: mark,
    ...row
  } = await trx
    .updateTable('products')
    .set({
      stock,
      updated_at: now,
      last_moved_at: lastMovedAtOnceMovedAt(sql`cast(${now} as bigint)`),
      reorder_crossed_at: crossedAtOnceStockIs(catalogueId, stock, now),
    })
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', id)
    .returning([...COLUMNS, 'reorder_crossed_at', pointThatApplies(catalogueId).as('point')])
    .executeTakeFirstOrThrow();
  if (mark !== null && !markedBefore) {
    const crossed = { id, name: row.name, stock: row.stock, point: Number(point) };
    await onReorderPointsReached(trx, catalogueId, [crossed], now);
  }
  return row;
}

/**
 * Adds `delta` to the product's quantity in one location (the default one unless named), and so
 * to its stock: refused when the location would go below 0 or the stock above MAX_STOCK. The
 * product's row is locked first, so concurrent adjustments each apply to what the one before left;
 * the movement is recorded in the same transaction.
 */
export async function adjustStock(
  w: CatalogueWrite,
  id: string,
  change: StockChange & AtLocation & { delta: number },
): Promise<Adjustment> {
  const { trx, catalogueId, now } = w;
  const { delta, note, reason } = change;
  const locked = await lockForChange(w, id, change);
  if (locked.outcome !== 'locked') return locked;
  const { locationId, stock } = locked;
  if (delta < 0) {
    const took = await takeFrom(trx, id, locationId, -delta);
    if (!took.taken) return { outcome: 'below-zero', stock: took.held };
  } else {
    if (stock > MAX_STOCK - delta) return { outcome: 'above-max', stock };
    await putIn(trx, catalogueId, [{ productId: id, locationId, quantity: delta }]);
  }
  await addUnits(w, new Map([[locationId, delta]]));
  const row = await writeStock(w, id, sql<number>`stock + ${delta}`, locked.marked);
  const movement = { productId: id, oldStock: row.stock - delta, newStock: row.stock, at: now };
  const [movementId] = await recordMovements(w, [
    { ...movement, source: 'adjustment', reason, note, locationId },
  ]);
  return {
    outcome: 'done',
    row,
    movement: { id: movementId!, ...movement, delta, reason: reason ?? null },
  };
}

/**
 * Sets the product's quantity in one location (the default one unless named) to a counted number,
 * its stock changing by the difference; recorded as a `count` movement from the stock it replaced
 * (also when they are equal: the count itself is worth keeping).
 */
async function countStock(
  w: CatalogueWrite,
  id: string,
  change: StockChange & AtLocation & { count: number },
): Promise<Adjustment> {
  const { trx, catalogueId, now } = w;
  const { count, note, reason } = change;
  const locked = await lockForChange(w, id, change);
  if (locked.outcome !== 'locked') return locked;
  const { locationId, stock } = locked;
  const delta = count - (await quantityAt(trx, id, locationId));
  // The other locations' quantities count too.
  if (stock + delta > MAX_STOCK) return { outcome: 'above-max', stock };
  await setQuantity(trx, catalogueId, id, locationId, count);
  await addUnits(w, new Map([[locationId, delta]]));
  const row = await writeStock(w, id, sql<number>`${stock + delta}`, locked.marked);
  const movement = { productId: id, oldStock: stock, newStock: stock + delta, at: now };
  const [movementId] = await recordMovements(w, [
    { ...movement, source: 'count', reason, note, locationId },
  ]);
  return {
    outcome: 'done',
    row,
    movement: { id: movementId!, ...movement, delta, reason: reason ?? null },
  };
}

/** Adds `delta` to the stock, or sets it to `count`: whichever the change carries. */
export function changeStock(
  w: CatalogueWrite,
  id: string,
  change: StockChange & AtLocation & { delta?: number | undefined; count?: number | undefined },
): Promise<Adjustment> {
  const { delta, count, reason, note, locationId } = change;
  // A count is a count unless said otherwise.
  if (count !== undefined) {
    return countStock(w, id, { count, reason: reason ?? 'counted', note, locationId });
  }
  return adjustStock(w, id, { delta: delta ?? 0, reason, note, locationId });
}
