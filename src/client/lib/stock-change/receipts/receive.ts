import type { QueryClient } from '@tanstack/react-query';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import type { QueuedReceipt, QueuedReceiptLine, StockChangeSource } from '../pending.js';
import { newChangeKey, productsOf, refreshAfterStockChanges } from '../request.js';
import { sendOrQueue } from '../send-or-queue.js';
import { afterReceipt, postReceipt } from './receipt-request.js';

/** A receipt as a screen asks for it: the order, where the stock goes, and what came in. */
export interface ReceiptRequest {
  catalogue: CatalogueRef;
  po: { id: string; number: string };
  location: { id: string; path: string };
  lines: QueuedReceiptLine[];
  source: StockChangeSource;
}

/** What a receipt did: sent (the server's answer) or kept to send later. */
export type ReceiptResult =
  { queued: false; answer: Awaited<ReturnType<typeof postReceipt>> } | { queued: true };

/**
 * Stock received against a purchase order, through the one stock-change module: offline or behind
 * waiting changes it joins the queue and goes in its turn (once: its Idempotency-Key); otherwise
 * it goes now, and is kept with the same key when no answer came. A refusal is thrown.
 */
export async function receiveStock(
  queryClient: QueryClient,
  { catalogue, po, location, lines, source }: ReceiptRequest,
): Promise<ReceiptResult> {
  const receipt: QueuedReceipt = {
    kind: 'receipt',
    key: newChangeKey(),
    catalogueId: catalogue,
    poId: po.id,
    poNumber: po.number,
    locationId: location.id,
    locationPath: location.path,
    lines,
    source,
    madeAt: new Date().toISOString(),
  };
  return sendOrQueue(receipt, {
    send: async () => {
      const answer = await postReceipt(receipt);
      await afterReceipt(queryClient, catalogue);
      return { queued: false as const, answer };
    },
    settle: () => refreshAfterStockChanges(queryClient, productsOf(catalogue, lines)),
  });
}
