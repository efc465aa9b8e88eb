import { getErrorStatus, isUnreachable } from '@/lib/api-error.js';
import { cachedImport } from '@/lib/lazy-import.js';
import { pendingSnapshot, type QueuedStockChange } from './pending.js';

export {
  IDEMPOTENCY_HEADER,
  pendingLabel,
  pendingSnapshot,
  productBeingSent,
  setPendingSnapshot,
  stockWithPending,
  useAllPendingChanges,
  type QueuedStockChange,
} from './pending.js';

/**
 * The queue itself (IndexedDB and the sending) is its own chunk, loaded after the first screen or
 * with the first change that must wait: the list's first visit does not carry it.
 */
export const loadStockQueue = cachedImport(() => import('./queue.js'));

/** Keeps a change to send later (offline, or the server could not be reached). */
export const queueStockChange = async (change: QueuedStockChange) =>
  (await loadStockQueue()).queueStockChange(change);

/**
 * Whether a new change must wait behind others: the browser is offline, or changes made earlier
 * still wait (they go first, in the order made).
 */
export const mustQueueStockChange = () => !navigator.onLine || pendingSnapshot().changes.length > 0;

/** A key for a new change, made once and sent with each attempt (Idempotency-Key). */
export function newChangeKey(): string {
  // randomUUID needs a secure context (https or localhost); a LAN address over http has none.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A stock change's request that got no answer worth keeping: none at all (offline, dropped), or a
 * proxy or server that is down. It may have been applied, so it is kept and sent again with the
 * same key; any other answer is final.
 */
export const gotNoAnswer = (error: unknown) =>
  isUnreachable(error) && [undefined, 502, 503, 504].includes(getErrorStatus(error));
