import type { PurchaseOrder } from '@shared/schemas/purchasing/purchase-orders.js';
import {
  useAllPendingChanges,
  type QueuedChange,
  type QueuedReceipt,
} from '@/lib/stock-change/index.js';

/** This user's receipts against an order that wait to be sent (offline). */
const waitingReceipts = (changes: readonly QueuedChange[], poId: string) =>
  changes.filter(
    (change): change is QueuedReceipt => change.kind === 'receipt' && change.poId === poId,
  );

/** Units of a product in the receipts that wait. */
const waitingUnits = (receipts: readonly QueuedReceipt[], productId: string) =>
  receipts.reduce(
    (sum, receipt) =>
      sum +
      receipt.lines
        .filter((line) => line.productId === productId)
        .reduce((units, line) => units + line.quantity, 0),
    0,
  );

/** A line of an order as the receiving screens show it. */
export interface ExpectedLine {
  productId: string;
  name: string;
  sku: string | null;
  supplierSku: string | null;
  ordered: number;
  /** Received as the server says, plus what waits to be sent. */
  received: number;
  /** Of which still waiting to be sent. */
  waiting: number;
  /** Ordered less received; 0 once all (or more) came in. */
  expected: number;
}

/**
 * An order's lines with what is still expected of each: what the server says was received, and
 * this user's receipts still waiting to be sent, so that a scan offline counts down too.
 */
export function expectedLines(
  order: PurchaseOrder | undefined,
  changes: readonly QueuedChange[],
): ExpectedLine[] {
  const receipts = waitingReceipts(changes, order?.id ?? '');
  return (order?.lines ?? []).map((line) => {
    const waiting = waitingUnits(receipts, line.productId);
    const received = line.received + waiting;
    return {
      productId: line.productId,
      name: line.name ?? 'Deleted product',
      sku: line.sku,
      supplierSku: line.supplierSku,
      ordered: line.quantity,
      received,
      waiting,
      expected: Math.max(0, line.quantity - received),
    };
  });
}

/** expectedLines, live: a receipt queued or sent shows at once. */
export const useExpectedLines = (order: PurchaseOrder | undefined) =>
  expectedLines(order, useAllPendingChanges());
