import type { QueryClient } from '@tanstack/react-query';
import type { CountLine } from '@shared/schemas/counts/counts.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { sentCountLine } from './count-line-request.js';
import type { QueuedCountLine, StockChangeSource } from './pending.js';
import { newChangeKey } from './request.js';
import { sendOrQueue } from './send-or-queue.js';

/** A line as a screen counts it: the product, where, how many, replacing the line or adding. */
export interface CountLineRequest {
  catalogue: CatalogueRef;
  countId: string;
  product: { id: string; name: string };
  location: { id: string; path: string };
  counted: number;
  add: boolean;
  source: StockChangeSource;
}

/** A line sent (the server's line: counted now, by whom) or kept to send later. */
export type CountLineResult = { queued: false; line: CountLine } | { queued: true };

/**
 * Counts a line the way stock changes go (send.ts): offline, or behind changes still waiting, it
 * joins the browser's queue and goes later in order; a request that got no answer joins it with
 * the same key. A refusal rejects with the server's error.
 */
export async function countLine(
  queryClient: QueryClient,
  request: CountLineRequest,
): Promise<CountLineResult> {
  const { catalogue, countId, product, location, counted, add, source } = request;
  const change: QueuedCountLine = {
    kind: 'countLine',
    key: newChangeKey(),
    catalogueId: catalogue,
    countId,
    line: {
      productId: product.id,
      productName: product.name,
      locationId: location.id,
      locationPath: location.path,
      counted,
      add,
    },
    source,
    madeAt: new Date().toISOString(),
  };
  return sendOrQueue(change, {
    send: async () => ({ queued: false as const, line: await sentCountLine(queryClient, change) }),
  });
}
