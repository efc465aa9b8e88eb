import type { QueuedChange } from './pending.js';
import { gotNoAnswer, mustQueueStockChange } from './request.js';
import { loadStockQueue } from './send.js';

/** How a change other than a product's stock step goes now (send.ts has that one's own rules). */
export interface Attempt<R> {
  /** Shows the change on screen if it must, sends it and returns what it answers. */
  send: () => Promise<R>;
  /** Takes back what `send` showed, when the request fails. */
  undo?: () => void;
  /** Runs once a request was made, whatever came of it. */
  settle?: () => Promise<unknown>;
}

/**
 * A move, a count line or a receipt: offline, or behind changes still waiting, it joins the
 * browser's queue and goes later in order; otherwise it goes now, and a request that got no answer
 * joins the queue with the same key (Idempotency-Key). A refusal rejects with the server's error.
 */
export async function sendOrQueue<R>(
  change: QueuedChange,
  { send, undo, settle }: Attempt<R>,
): Promise<R | { queued: true }> {
  const keep = async () => {
    await (await loadStockQueue()).queueStockChange(change);
    return { queued: true as const };
  };
  if (mustQueueStockChange()) return keep();
  try {
    return await send();
  } catch (error) {
    undo?.();
    if (gotNoAnswer(error)) return await keep();
    throw error;
  } finally {
    await settle?.();
  }
}
