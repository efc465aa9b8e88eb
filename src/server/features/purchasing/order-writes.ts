import {
  PO,
  type PurchaseOrderUpdate,
} from '../../../shared/schemas/purchasing/purchase-orders.js';
import type { ActivityKind } from '../../../shared/activity.js';
import type { CatalogueWrite } from '../writes/index.js';
import { conflict, lockOrder, setStatus, storedLines, writeLines } from './purchase-orders.js';

/** Where each status a PATCH may ask for can be reached from. */
const MOVES = {
  ordered: ['draft'],
  // A part-received order can be closed short: what came in stays.
  cancelled: ['draft', 'ordered', 'partially_received'],
} as const;

const WORDS = { ordered: 'ordered', cancelled: 'cancelled' } as const;

/**
 * A PATCH of an order: a draft's lines, expected date and notes, then the move to `ordered` (a
 * draft with lines) or `cancelled`. Anything else is refused with 409 and changes nothing (the
 * transaction is rolled back). Returns the activity kind the change is.
 */
export async function updateOrder(
  w: CatalogueWrite,
  poId: string,
  body: PurchaseOrderUpdate,
): Promise<{ id: string; number: number; kind: ActivityKind }> {
  const { trx, catalogueId, now } = w;
  const order = await lockOrder(w, poId);
  const edits =
    body.lines !== undefined || body.expectedAt !== undefined || body.notes !== undefined;
  if (edits && order.status !== 'draft') throw conflict(PO.notDraft);
  if (body.status !== undefined) {
    const from: readonly string[] = MOVES[body.status];
    if (!from.includes(order.status)) {
      throw conflict(PO.cannotMove(order.status, WORDS[body.status]));
    }
  }
  if (body.lines !== undefined) {
    await writeLines(
      trx,
      order.id,
      await storedLines(trx, catalogueId, order.supplier_id, body.lines),
    );
  }
  if (body.expectedAt !== undefined || body.notes !== undefined) {
    await trx
      .updateTable('purchase_orders')
      .set({
        ...(body.expectedAt !== undefined ? { expected_at: body.expectedAt } : {}),
        ...(body.notes !== undefined ? { notes: body.notes } : {}),
        updated_at: now,
      })
      .where('id', '=', order.id)
      .execute();
  }
  if (body.status === 'ordered') {
    const line = await trx
      .selectFrom('purchase_order_lines')
      .select('product_id')
      .where('purchase_order_id', '=', order.id)
      .executeTakeFirst();
    if (!line) throw conflict(PO.emptyOrder);
  }
  if (body.status !== undefined) await setStatus(w, order.id, body.status);
  const kind: ActivityKind =
    body.status === 'ordered'
      ? 'purchase_order.ordered'
      : body.status === 'cancelled'
        ? 'purchase_order.cancelled'
        : 'purchase_order.updated';
  return { id: order.id, number: order.number, kind };
}

/** Deletes a draft, or a cancelled order nothing was received against. */
export async function deleteOrder(w: CatalogueWrite, poId: string) {
  const { trx } = w;
  const order = await lockOrder(w, poId);
  const received = await trx
    .selectFrom('purchase_order_lines')
    .select('product_id')
    .where('purchase_order_id', '=', order.id)
    .where('received', '>', 0)
    .executeTakeFirst();
  const deletable = order.status === 'draft' || (order.status === 'cancelled' && !received);
  if (!deletable) throw conflict(PO.notDeletable);
  await trx.deleteFrom('purchase_order_lines').where('purchase_order_id', '=', order.id).execute();
  await trx.deleteFrom('purchase_orders').where('id', '=', order.id).execute();
  return order;
}
