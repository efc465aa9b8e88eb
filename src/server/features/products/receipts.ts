import { sql } from 'kysely';
import { MAX_STOCK } from '../../../shared/constants.js';
import type { CatalogueWrite } from '../writes/index.js';
import { lockProducts } from './locks.js';
import { lastMovedAtOnceMovedAt, recordMovements } from './movements.js';
import {
  markOnceWritten,
  onReorderPointsReached,
  readCataloguePoint,
  type Crossing,
} from './reorder.js';
import { addUnits, putIn } from './stock-levels.js';

/** One product received: how many, at what unit cost (cents). */
export interface ReceivedLine {
  productId: string;
  quantity: number;
  unitCostCents: number;
}

export type ReceiptResult =
  | { outcome: 'done'; products: { id: string; name: string; stock: number }[] }
  | { outcome: 'no-product' | 'no-location' | 'above-max' };

/**
 * The moving average of a unit's cost: what the stock on hand cost and what came in, over both,
 * to the nearest cent (halves up). BigInt, so the products never lose a digit whatever the
 * numbers; stock on hand at or below 0, or without a cost, takes the new cost as it is.
 * @public (tests check it to the cent)
 */
export function movingAverageCents(
  onHand: number,
  costCents: number | null,
  received: number,
  unitCostCents: number,
): number {
  if (costCents === null || onHand <= 0) return unitCostCents;
  const total = BigInt(onHand) * BigInt(costCents) + BigInt(received) * BigInt(unitCostCents);
  const units = BigInt(onHand + received);
  return Number((2n * total + units) / (2n * units));
}

/**
 * Stock received into one location of the catalogue, in the caller's write transaction: each
 * product's quantity there and its stock go up, its cost becomes the moving average of what it
 * had and what came in, and each line is a movement with reason `received` naming the purchase
 * order. The products' rows are locked first, in the order of their ids (PostgreSQL), so a
 * receipt and any other stock write of the same products apply one after the other.
 */
export async function receiveStock(
  w: CatalogueWrite,
  locationId: string,
  purchaseOrderId: string,
  lines: ReceivedLine[],
): Promise<ReceiptResult> {
  const { trx, catalogueId, now } = w;
  const ids = [...new Set(lines.map((line) => line.productId))].sort();
  const rows = await lockProducts(w, ids)
    .select(['id', 'name', 'stock', 'cost_cents', 'reorder_point', 'reorder_crossed_at'])
    .execute();
  if (rows.length !== ids.length) return { outcome: 'no-product' };
  const location = await trx
    .selectFrom('locations')
    .select('id')
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', locationId)
    .executeTakeFirst();
  if (!location) return { outcome: 'no-location' };

  const after = new Map(rows.map((row) => [row.id, { ...row, cost: row.cost_cents }]));
  for (const line of lines) {
    const product = after.get(line.productId)!;
    if (product.stock > MAX_STOCK - line.quantity) return { outcome: 'above-max' };
    const cost = product.cost === null ? null : Number(product.cost);
    product.cost = movingAverageCents(product.stock, cost, line.quantity, line.unitCostCents);
    product.stock += line.quantity;
  }
  await putIn(
    trx,
    catalogueId,
    lines.map(({ productId, quantity }) => ({ productId, locationId, quantity })),
  );
  const units = lines.reduce((sum, line) => sum + line.quantity, 0);
  await addUnits(w, new Map([[locationId, units]]));
  // When each last moved and its mark in the same statement: a second would write the row again.
  const point = await readCataloguePoint(trx, catalogueId);
  const crossed: Crossing[] = [];
  for (const product of after.values()) {
    const { mark, crossed: crossing } = markOnceWritten(product, point, now);
    if (crossing) crossed.push(crossing);
    await trx
      .updateTable('products')
      .set({
        stock: product.stock,
        cost_cents: product.cost,
        updated_at: now,
        last_moved_at: lastMovedAtOnceMovedAt(sql`cast(${now} as bigint)`),
        reorder_crossed_at: mark,
      })
      .where('catalogue_id', '=', catalogueId)
      .where('id', '=', product.id)
      .execute();
  }
  const stockBefore = new Map(rows.map((row) => [row.id, row.stock]));
  await recordMovements(
    w,
    lines.map((line) => {
      const oldStock = stockBefore.get(line.productId)!;
      stockBefore.set(line.productId, oldStock + line.quantity);
      return {
        productId: line.productId,
        oldStock,
        newStock: oldStock + line.quantity,
        source: 'adjustment' as const,
        reason: 'received' as const,
        at: now,
        locationId,
        purchaseOrderId,
      };
    }),
  );
  await onReorderPointsReached(trx, catalogueId, crossed, now);
  return {
    outcome: 'done',
    products: [...after.values()].map(({ id, name, stock }) => ({ id, name, stock })),
  };
}
