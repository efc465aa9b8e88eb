import { createStore, del, get, update, type UseStore } from 'idb-keyval';
import type { User } from '@shared/schemas/auth.js';
import type { Product } from '@shared/schemas/products.js';
import { getErrorMessage, getErrorStatus, isUnreachable } from '@/lib/api-error.js';
import { tokenOf } from '@/lib/auth/token.js';
import { notifyError } from '@/lib/notify.js';
import { cancelProductReads } from '@/lib/query/product-cache.js';
import { queryClient, queryKeys } from '@/lib/query/query-client.js';
import {
  markInFlight,
  pendingSnapshot,
  setPendingSnapshot,
  stockChangesInFlight,
  type QueuedChange,
} from '../pending.js';
import { sentCountLine } from '../count-line-request.js';
import { postMove } from '../moves/move-request.js';
import { afterReceipt, postReceipt } from '../receipts/receipt-request.js';
import { postStockChange, refreshAfterStockChanges, writeServerStock } from '../request.js';

/** The server's answer for a catalogue that is gone or no longer the user's. */
const CATALOGUE_NOT_FOUND = 'Catalogue not found';

/** One change as the user made it, for a message: '+3', '-2', 'Set 40', 'Set 40 at Bin 4'. */
function describeChange(change: QueuedChange) {
  if (change.kind === 'countLine') {
    const { counted, add, locationPath } = change.line;
    return `the count of ${add ? `+${counted}` : counted} at ${locationPath}`;
  }
  if (change.kind === 'receipt') {
    const units = change.lines.reduce((sum, line) => sum + line.quantity, 0);
    return `the receipt of ${units} ${units === 1 ? 'unit' : 'units'} against ${change.poNumber}`;
  }
  if (change.kind === 'move') {
    const units = change.lines.reduce((sum, line) => sum + line.quantity, 0);
    return `the move of ${units} ${units === 1 ? 'unit' : 'units'} to ${change.toPath}`;
  }
  const { delta, count, locationPath } = change;
  const amount =
    count !== undefined ? `Set ${count}` : (delta ?? 0) > 0 ? `+${delta}` : `${delta ?? 0}`;
  return locationPath ? `${amount} at ${locationPath}` : amount;
}

/** What a message names: the product changed, or the first of a move's ('Blue mug and 2 more'). */
function subjectOf(change: QueuedChange) {
  if (change.kind === 'countLine') return `'${change.line.productName}'`;
  if (change.kind === undefined) return `'${change.productName}'`;
  const [first] = change.lines;
  const more = change.lines.length - 1;
  return `'${first?.productName ?? ''}'${more > 0 ? ` and ${more} more` : ''}`;
}

/** The products a change touches. */
const productsOf = (
  change: QueuedChange,
): { catalogueId?: string | undefined; productId: string }[] =>
  change.kind === 'countLine'
    ? []
    : change.kind === undefined
      ? [change]
      : change.lines.map(({ productId }) => ({ catalogueId: change.catalogueId, productId }));

/**
 * The waiting stock changes in IndexedDB: one entry per user (their id), an array in the order
 * the changes were made. Each write is one read-write transaction (idb-keyval's `update`), so two
 * tabs adding at once both land.
 */
let database: UseStore | undefined;
const changesStore = () => (database ??= createStore('stockroom-stock-queue', 'changes'));
const entryOf = (userId: string) => `user:${userId}`;

const readQueue = async (userId: string) =>
  (await get<QueuedChange[]>(entryOf(userId), changesStore())) ?? [];

/**
 * The signed-in user's id, while the browser's token is theirs. A tab can still show a user
 * whom another tab logged out and someone else in: a queue is only ever read, kept and sent for
 * the user whose token it is.
 */
const signedInUserId = () => {
  const userId = queryClient.getQueryData<User>(queryKeys.user)?.id;
  return tokenOf(userId) === undefined ? undefined : userId;
};

async function publish(userId: string) {
  const changes = await readQueue(userId);
  if (signedInUserId() === userId) setPendingSnapshot(userId, changes);
  return changes;
}

/** Reads the user's queue into the screens' copy (app start, another user signed in). */
export const loadQueue = (userId: string) => publish(userId);

/**
 * What a tab's run tells the user's other tabs: after each change, that the queue changed and,
 * for a stock change the server took, the product as it answered; once done, the products touched.
 * A tab that showed those changes as waiting shows them as sent, at the server's stock, without
 * waiting for its own run (which comes later, and would read a list that may be older).
 */
type TabWord =
  | {
      kind: 'sent';
      product?: { catalogueId: string | undefined; product: Product } | undefined;
    }
  | { kind: 'done'; touched: { catalogueId?: string | undefined; productId: string }[] };

/**
 * This tab's channel to the user's other tabs, where the browser has one: one per user, to
 * speak and to listen on, so that the tab does not hear its own words.
 */
const channels = new Map<string, BroadcastChannel>();

function channelOf(userId: string) {
  let channel = channels.get(userId);
  if (!channel && typeof BroadcastChannel === 'function') {
    channel = new BroadcastChannel(`stockroom-stock-queue:${userId}`);
    channels.set(userId, channel);
  }
  return channel;
}

function tellOtherTabs(userId: string, word: TabWord) {
  try {
    channelOf(userId)?.postMessage(word);
  } catch {
    // A tab that does not hear it finds the changes gone at its own run (sendAll).
  }
}

/** Applies another tab's word, in the order they come (each waits for the reads it stops). */
async function heard(userId: string, word: TabWord) {
  if (signedInUserId() !== userId) return;
  if (word.kind === 'done') {
    await refreshAfterStockChanges(queryClient, word.touched);
    return;
  }
  const answer = word.product;
  // A read of the list begun before the change was sent (this tab's reconnect) must not land
  // over it, as in the tab that sent it.
  if (answer) await cancelProductReads(queryClient, answer.catalogueId, answer.product.id);
  const changes = await readQueue(userId);
  if (signedInUserId() !== userId) return;
  // In one go: the waiting change gone and the stock it left, never one without the other.
  setPendingSnapshot(userId, changes);
  // A change of this tab on its way for the product writes its own answer, the later one.
  if (answer && stockChangesInFlight(answer.product.id) === 0) {
    writeServerStock(queryClient, answer.catalogueId, answer.product);
  }
}

/**
 * Follows what the user's other tabs send of the queue (StockQueueRunner, while the user is
 * signed in here). Returns the function that stops it.
 */
export function followOtherTabs(userId: string): () => void {
  const channel = channelOf(userId);
  if (!channel) return () => undefined;
  let applying = Promise.resolve();
  const listener = ({ data }: MessageEvent<TabWord>) => {
    applying = applying.then(() => heard(userId, data)).catch(() => undefined);
  };
  channel.addEventListener('message', listener);
  return () => channel.removeEventListener('message', listener);
}

/** Adds a change at the end of the signed-in user's queue, then tries to send the queue. */
export async function queueStockChange(change: QueuedChange) {
  const userId = signedInUserId();
  if (!userId) throw new Error('You are signed out: the stock change was not kept.');
  try {
    await update<QueuedChange[]>(
      entryOf(userId),
      (changes = []) => [...changes.filter(({ key }) => key !== change.key), change],
      changesStore(),
    );
  } catch {
    // Storage refused (a private window that has none, a full disk): say what it means.
    throw new Error(
      `This browser could not keep ${describeChange(change)} for ${subjectOf(change)} to send later. Try again once online.`,
    );
  }
  await publish(userId);
  void sendQueuedChanges().catch(() => undefined);
}

/** Drops a user's waiting changes (a logout the user confirmed). */
export async function forgetQueue(userId: string) {
  await del(entryOf(userId), changesStore());
  if (pendingSnapshot().userId === userId) setPendingSnapshot(userId, []);
}

const removeFromQueue = (userId: string, key: string) =>
  update<QueuedChange[]>(
    entryOf(userId),
    (changes = []) => changes.filter((change) => change.key !== key),
    changesStore(),
  );

/**
 * Answers that say "not now" rather than "no": no answer at all, a session that ended (the queue
 * waits for its owner to sign in again), a rate limit, a proxy or server that is down.
 */
const WAIT_STATUSES = new Set([401, 408, 429, 502, 503, 504]);
const mustWait = (error: unknown) => {
  const status = getErrorStatus(error);
  return status === undefined ? isUnreachable(error) : WAIT_STATUSES.has(status);
};

function refusalReason(change: QueuedChange, error: unknown) {
  const status = getErrorStatus(error);
  const message = getErrorMessage(error);
  // A catalogue the user no longer belongs to is named as such, not as a deleted product; a
  // move, a receipt, a count's line or a change at a location names what is gone (a product or a
  // location) itself.
  const named = change.kind !== undefined || change.locationId !== undefined;
  if (status === 404 && message !== CATALOGUE_NOT_FOUND && !named)
    return 'the product was deleted.';
  // Any other refusal (a role that no longer allows it, a stock below 0) in the server's words.
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

/** How a change went: sent (with the product the server answered, for a stock change), or not. */
type Outcome = { sent: true; product?: Product | undefined } | { sent: false; wait: boolean };

/**
 * One waiting change, through the request and cache writes every stock change uses (send.ts),
 * with its owner's token (`token`): never with whatever token the browser holds by then.
 */
async function sendOne(change: QueuedChange, token: string): Promise<Outcome> {
  // A move or a count's line changes no stock, and a receipt's products are read again after it:
  // nothing of them to keep live events from.
  const sent = change.kind !== undefined ? () => undefined : markInFlight(change.productId);
  try {
    if (change.kind === 'countLine') {
      await sentCountLine(queryClient, change, token);
      return { sent: true };
    }
    if (change.kind === 'move') {
      await postMove(change, token);
      return { sent: true };
    }
    if (change.kind === 'receipt') {
      await postReceipt(change, token);
      await afterReceipt(queryClient, change.catalogueId);
      return { sent: true };
    }
    const { product } = await postStockChange(change, token);
    // A read of the list begun before this change (the reconnect's) must not land over it.
    await cancelProductReads(queryClient, change.catalogueId, product.id);
    writeServerStock(queryClient, change.catalogueId, product);
    return { sent: true, product };
  } catch (error) {
    if (mustWait(error)) return { sent: false, wait: true };
    notifyError(
      new Error(
        `Could not send ${describeChange(change)} for ${subjectOf(change)}: ${refusalReason(change, error)}`,
      ),
    );
    return { sent: false, wait: false };
  } finally {
    sent();
  }
}

/**
 * Sends the first change until none is left, one at a time, or until one must wait; then tells
 * the user's other tabs. Changes this tab showed as waiting that another tab sent meanwhile (its
 * word missed, or no BroadcastChannel) are read again here, lists included: this tab's copies of
 * them still hold the stock from before.
 */
async function sendAll(userId: string) {
  const shown = pendingSnapshot().userId === userId ? pendingSnapshot().changes : [];
  const touched: { catalogueId?: string | undefined; productId: string }[] = [];
  const handled = new Set<string>();
  try {
    for (;;) {
      const token = tokenOf(userId);
      if (!token || signedInUserId() !== userId || !navigator.onLine) return;
      const [next] = await readQueue(userId);
      if (!next) return;
      const outcome = await sendOne(next, token);
      if (!outcome.sent && outcome.wait) return;
      handled.add(next.key);
      touched.push(...productsOf(next));
      await removeFromQueue(userId, next.key);
      await publish(userId);
      const product = outcome.sent ? outcome.product : undefined;
      tellOtherTabs(userId, {
        kind: 'sent',
        product: product && { catalogueId: next.catalogueId, product },
      });
    }
  } finally {
    const left = new Set((await publish(userId)).map(({ key }) => key));
    const elsewhere = shown.filter(({ key }) => !handled.has(key) && !left.has(key));
    await refreshAfterStockChanges(queryClient, touched);
    if (elsewhere.length > 0 && signedInUserId() === userId) {
      await refreshAfterStockChanges(queryClient, elsewhere.flatMap(productsOf), {
        lists: 'now',
      });
    }
    if (touched.length > 0) tellOtherTabs(userId, { kind: 'done', touched });
  }
}

let running: Promise<void> | undefined;
let next: Promise<void> | undefined;

/** One run over the queue, under a Web Lock where the browser has them (see below). */
function startRun(): Promise<void> {
  running = (async () => {
    const userId = signedInUserId();
    if (!userId) return;
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (locks) await locks.request(`stockroom-stock-queue:${userId}`, () => sendAll(userId));
    else await sendAll(userId);
  })().finally(() => {
    running = undefined;
  });
  return running;
}

/**
 * Sends the signed-in user's queue in order. One run at a time in this tab; a call during a run
 * (the 'online' event, a new change) gets one more run after it, which sees what the first could
 * not. Across tabs the runs take turns under a Web Lock, so each change goes once, in order,
 * whichever tab sends it (and a change sent twice anyway carries its key: applied once).
 */
export function sendQueuedChanges(): Promise<void> {
  if (next) return next;
  if (!running) return startRun();
  next = running.then(() => {
    next = undefined;
    return startRun();
  });
  return next;
}
