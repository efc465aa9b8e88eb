import { PO, type Receipt } from '../../../shared/schemas/purchasing/purchase-orders.js';
import { notFound } from '../../lib/http-error.js';
import { receiveStock } from '../products/index.js';
import type { CatalogueWrite } from '../writes/index.js';
import { conflict, lockOrder, setStatus } from './purchase-orders.js';
import { visibleProduct } from '../../infra/db/visible-products.js';

/** A receipt's outcome: the units taken in, and the lines that came past what was ordered. */
export interface Received {
  poId: string;
  number: number;
  units: number;
  productIds: string[];
  overReceived: { productId: string; name: string; ordered: number; received: number }[];
}

/**
 * Takes in stock against an ordered (or partly received) order, in the caller's write: the order's
 * row is locked first, so receipts against it made at once count one after the other and never
 * twice; then its lines' `received`, the products' stock (into the location) and costs, and the
 * order's status: received once every line has all it ordered, partly received before.
 */
export async function receiveAgainst(
  w: CatalogueWrite,
  poId: string,
  receipt: Receipt,
): Promise<Received> {
  const { trx } = w;
  const order = await lockOrder(w, poId);
  if (order.status !== 'ordered' && order.status !== 'partially_received') {
    throw conflict(PO.notReceivable);
  }
  const lines = await trx
    .selectFrom('purchase_order_lines as l')
    .leftJoin('products as p', (join) =>
      join.onRef('p.id', '=', 'l.product_id').on(visibleProduct('p')),
    )
    .select(['l.product_id', 'l.quantity', 'l.unit_cost_cents', 'l.received', 'p.name'])
    .where('l.purchase_order_id', '=', order.id)
    .execute();
  const byProduct = new Map(lines.map((line) => [line.product_id, line]));
  // The same product twice in a receipt is one line of their sum.
  const came = new Map<string, number>();
  for (const { productId, quantity } of receipt.lines) {
    if (!byProduct.has(productId)) throw notFound(PO.notOnOrder(productId));
    came.set(productId, (came.get(productId) ?? 0) + quantity);
  }
  const taken = [...came].map(([productId, quantity]) => ({
    productId,
    quantity,
    unitCostCents: Number(byProduct.get(productId)!.unit_cost_cents),
  }));
  const result = await receiveStock(w, receipt.locationId, order.id, taken);
  if (result.outcome === 'no-product') throw notFound(PO.productNotFound);
  if (result.outcome === 'no-location') throw notFound(PO.locationNotFound);
  if (result.outcome === 'above-max') throw conflict(PO.tooMuch);

  const overReceived: Received['overReceived'] = [];
  let complete = true;
  for (const line of lines) {
    const received = line.received + (came.get(line.product_id) ?? 0);
    if (came.has(line.product_id)) {
      await trx
        .updateTable('purchase_order_lines')
        .set({ received })
        .where('purchase_order_id', '=', order.id)
        .where('product_id', '=', line.product_id)
        .execute();
      if (received > line.quantity) {
        overReceived.push({
          productId: line.product_id,
          name: line.name ?? line.product_id,
          ordered: line.quantity,
          received,
        });
      }
    }
    if (received < line.quantity) complete = false;
  }
  await setStatus(w, order.id, complete ? 'received' : 'partially_received');
  const units = taken.reduce((sum, line) => sum + line.quantity, 0);
  return {
    poId: order.id,
    number: order.number,
    units,
    productIds: [...came.keys()],
    overReceived,
  };
}
