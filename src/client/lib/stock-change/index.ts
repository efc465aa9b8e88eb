/**
 * The one way the app changes stock (send.ts, `changeStock`, bound to a screen by
 * `useChangeStock`): send now or queue, show it at once, take it back when refused, one
 * Idempotency-Key per change, and the queue's replay in order (offline/queue.ts). The light part is
 * here, on the list's first visit; the queue's IndexedDB code loads later.
 */
export {
  pendingLabel,
  pendingSnapshot,
  setPendingSnapshot,
  stockChangesInFlight,
  stockWithPending,
  useAllPendingChanges,
  type QueuedChange,
  type QueuedReceipt,
  type QueuedStockChange,
  type StockChangeSource,
} from './pending.js';
export { loadStockQueue } from './send.js';
export { useChangeStock } from './use-change-stock.js';
