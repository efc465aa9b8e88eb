import { useSyncExternalStore } from 'react';
import type { StockReason } from '@shared/constants.js';

/** The screen a stock change was made on, kept in the activity log (the Stockroom-Source header). */
export type StockChangeSource = 'stepper' | 'scan' | 'form';

/**
 * The header a stock change carries so that sending it again applies it once (the server's name
 * for it is IDEMPOTENCY_HEADER in @shared/schemas/live-events, kept out of this first-visit code
 * with the rest of the shared schemas).
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * A stock change that has not reached the server yet, as kept in the browser: units added
 * (`delta`, negative: taken away) or the stock as counted (`count`). `key` is made when the change
 * is made and goes with every attempt as the Idempotency-Key, so a resend after a lost answer is
 * applied once.
 */
export interface QueuedStockChange {
  key: string;
  /** The shared catalogue the product is in; none (as in changes kept before): the personal one. */
  catalogueId?: string | undefined;
  productId: string;
  /** Named in the message when the server refuses the change. */
  productName: string;
  delta?: number | undefined;
  count?: number | undefined;
  reason?: StockReason | undefined;
  note?: string | undefined;
  /** Where it was made; changes kept before this was recorded go as the API's. */
  source?: StockChangeSource | undefined;
  /** ISO time the change was made. */
  madeAt: string;
  /** The location it applies to; none: the catalogue's default location. */
  locationId?: string | undefined;
  /** Its path, named in a refusal. */
  locationPath?: string | undefined;
  /**
   * A count at a location sets that location only: how far it moves the product's stock, as the
   * screen knew the location's quantity when the count was made (what the screens show meanwhile).
   */
  shift?: number | undefined;
  kind?: undefined;
}

/** One product's part of a move: `quantity` units from one location to another. */
export interface QueuedMoveLine {
  productId: string;
  productName: string;
  from: string;
  to: string;
  quantity: number;
}

/**
 * A move of stock between locations (one transfer, of one or many lines), kept like any stock
 * change and sent in its turn: it changes no product's stock, only where it is.
 */
export interface QueuedMove {
  kind: 'move';
  key: string;
  catalogueId?: string | undefined;
  lines: QueuedMoveLine[];
  /** Named in messages: 'Bin 4' (or where the lines go, when all go to one place). */
  toPath: string;
  source?: StockChangeSource | undefined;
  madeAt: string;
  productId?: undefined;
}

/**
 * A line of a stock count: what was counted of a product at a location, replacing the line's
 * number or (`add`) adding to it. It changes no stock (the count's posting does), so it carries
 * no `productId` of its own and no screen counts it as a waiting stock change.
 */
export interface QueuedCountLine {
  kind: 'countLine';
  key: string;
  catalogueId?: string | undefined;
  countId: string;
  line: {
    productId: string;
    productName: string;
    locationId: string;
    locationPath: string;
    counted: number;
    add: boolean;
  };
  source?: StockChangeSource | undefined;
  madeAt: string;
  productId?: undefined;
}

/** One product's part of a receipt: `quantity` units that came in. */
export interface QueuedReceiptLine {
  productId: string;
  productName: string;
  quantity: number;
}

/**
 * Stock received against a purchase order into one location (one receipt, of one or many lines),
 * kept like any stock change: a receipt made offline is sent once, in its turn, with its key.
 */
export interface QueuedReceipt {
  kind: 'receipt';
  key: string;
  catalogueId?: string | undefined;
  poId: string;
  /** Named in messages: 'PO-0001'. */
  poNumber: string;
  locationId: string;
  locationPath: string;
  lines: QueuedReceiptLine[];
  source?: StockChangeSource | undefined;
  madeAt: string;
  productId?: undefined;
}

/** Anything waiting in the queue, in the order made. */
export type QueuedChange = QueuedStockChange | QueuedMove | QueuedCountLine | QueuedReceipt;

/**
 * The signed-in user's waiting changes, in the order made: a copy of what IndexedDB holds
 * (offline/queue.ts writes both), kept here so that screens read it synchronously and this
 * module stays out of IndexedDB's code (it is on the list's first visit).
 */
interface Snapshot {
  userId: string | undefined;
  changes: readonly QueuedChange[];
}

let snapshot: Snapshot = { userId: undefined, changes: [] };
const listeners = new Set<() => void>();

export const pendingSnapshot = () => snapshot;

export function setPendingSnapshot(userId: string | undefined, changes: readonly QueuedChange[]) {
  snapshot = { userId, changes };
  listeners.forEach((listener) => listener());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

const EMPTY: readonly QueuedChange[] = [];
const serverSnapshot = () => EMPTY;

/** Every waiting change of the user, live (how many, at logout). */
export const useAllPendingChanges = () =>
  useSyncExternalStore(subscribe, () => snapshot.changes, serverSnapshot);

/**
 * The stock once the waiting changes are applied to what the server last said: a count replaces
 * it, a delta adds to it. Screens show this number, with the note saying part of it is not sent.
 */
export const stockWithPending = (stock: number, changes: readonly QueuedStockChange[]) =>
  changes.reduce(
    (total, change) =>
      change.shift === undefined && change.count !== undefined
        ? change.count
        : total + (change.delta ?? change.shift ?? 0),
    stock,
  );

const signed = (delta: number) => (delta > 0 ? `+${delta}` : `${delta}`);

/**
 * '+3 waiting to be sent', 'Set 40, then -2 waiting to be sent': the changes after the last count
 * add up, as the server will apply them; undefined when nothing waits.
 */
export function pendingLabel(changes: readonly QueuedStockChange[]): string | undefined {
  if (changes.length === 0) return undefined;
  const lastCount = changes.findLastIndex(
    (change) => change.count !== undefined && change.shift === undefined,
  );
  const after = changes
    .slice(lastCount + 1)
    .reduce((sum, change) => sum + (change.delta ?? change.shift ?? 0), 0);
  const parts: string[] = [];
  if (lastCount >= 0) parts.push(`Set ${changes[lastCount]?.count}`);
  if (after !== 0) parts.push(signed(after));
  if (parts.length === 0) return `${changes.length} changes waiting to be sent`;
  return `${parts.join(', then ')} waiting to be sent`;
}

/**
 * How many of this tab's stock changes are on their way, per product: while one is, its answer
 * writes the stock, so a live event about an in-between state is not shown meanwhile, and an
 * answer does not overwrite a change made after it.
 */
const inFlight = new Map<string, number>();

export const stockChangesInFlight = (productId: string) => inFlight.get(productId) ?? 0;

/** Counts a change as on its way until the returned function is called. */
export function markInFlight(productId: string) {
  inFlight.set(productId, stockChangesInFlight(productId) + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const left = stockChangesInFlight(productId) - 1;
    if (left > 0) inFlight.set(productId, left);
    else inFlight.delete(productId);
  };
}
