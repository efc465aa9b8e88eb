import type { QueryClient } from '@tanstack/react-query';
import type { StockReason } from '@shared/constants.js';
import type { Product } from '@shared/schemas/products.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { cachedImport } from '@/lib/lazy-import.js';
import { cancelProductReads, patchCachedProduct } from '@/lib/query/product-cache.js';
import { queryKeys } from '@/lib/query/query-client.js';
import {
  markInFlight,
  pendingSnapshot,
  stockChangesInFlight,
  stockWithPending,
  type QueuedStockChange,
  type StockChangeSource,
} from './pending.js';
import {
  applyChange,
  gotNoAnswer,
  mustQueueStockChange,
  newChangeKey,
  postStockChange,
  refreshAfterStockChanges,
  writeServerStock,
} from './request.js';

/**
 * The queue itself (IndexedDB and the replay) is its own chunk, loaded after the first screen or
 * with the first change that must wait: the list's first visit does not carry it.
 */
export const loadStockQueue = cachedImport(() => import('./offline/queue.js'));

/** A stock change as a screen asks for it: units added or taken (`delta`), or a count. */
export type ScreenStockChange = {
  /** The product as the screen knows it: its stock is the server's, without waiting changes. */
  product: { id: string; name: string; stock: number };
  reason?: StockReason | undefined;
  note?: string | undefined;
  /** One location's quantity changes (none: the default location's), with its path for messages. */
  location?: { id: string; path: string; held: number } | undefined;
} & ({ delta: number; count?: undefined } | { count: number; delta?: undefined });

/** A stock change, in its catalogue, from the screen it was made on. */
export type StockChangeRequest = ScreenStockChange & {
  catalogue: CatalogueRef;
  source: StockChangeSource;
};

/**
 * What a change did. `stock` is the stock now shown for the product (waiting changes included)
 * and `delta` how far it moved (a count's difference included); a change sent has the server's
 * answer, one queued waits to be sent.
 */
export type StockChangeResult = { stock: number; delta: number } & (
  { queued: false; product: Product } | { queued: true }
);

/** The stock shown for a product: the server's, with this user's waiting changes applied. */
const shownStock = (productId: string, serverStock: number) =>
  stockWithPending(
    serverStock,
    pendingSnapshot().changes.filter(
      (change): change is QueuedStockChange => change.productId === productId,
    ),
  );

async function keepForLater(change: QueuedStockChange, serverStock: number) {
  const before = shownStock(change.productId, serverStock);
  await (await loadStockQueue()).queueStockChange(change);
  const stock = shownStock(change.productId, serverStock);
  return { queued: true as const, stock, delta: stock - before };
}

/**
 * Every stock change of the app goes through here: the stepper's, the scanner's, and (through
 * the same request and cache writes) the offline queue's replay.
 *
 * Offline, or behind changes still waiting, the change joins the browser's queue and is sent later
 * in order; the screens show it as waiting. Otherwise it shows at once wherever the product is
 * cached, then goes with a new Idempotency-Key. An accepted change writes the server's count once
 * no other change of the product is in flight (an earlier answer must not undo a later click). A
 * request that got no answer takes its display back and joins the queue with the same key, so
 * that it is applied once however often it is sent. A refusal takes back exactly this change
 * (other changes in flight keep theirs), reads the product again when arithmetic cannot restore
 * it, and rejects with the server's error.
 */
export async function changeStock(
  queryClient: QueryClient,
  request: StockChangeRequest,
): Promise<StockChangeResult> {
  const { catalogue, product, source, reason, note, delta, count, location } = request;
  const change: QueuedStockChange = {
    locationId: location?.id,
    locationPath: location?.path,
    shift: location && count !== undefined ? count - location.held : undefined,
    key: newChangeKey(),
    catalogueId: catalogue,
    productId: product.id,
    productName: product.name,
    delta,
    count,
    reason,
    note: note || undefined,
    source,
    madeAt: new Date().toISOString(),
  };
  if (mustQueueStockChange()) return keepForLater(change, product.stock);

  const sent = markInFlight(product.id);
  try {
    await cancelProductReads(queryClient, catalogue, product.id);
    patchCachedProduct(queryClient, catalogue, product.id, applyChange(change));
    try {
      const { product: saved } = await postStockChange(change);
      if (stockChangesInFlight(product.id) === 1) writeServerStock(queryClient, catalogue, saved);
      return {
        queued: false,
        product: saved,
        stock: saved.stock,
        delta: saved.stock - product.stock,
      };
    } catch (error) {
      patchCachedProduct(queryClient, catalogue, product.id, applyChange(change, true));
      if (gotNoAnswer(error)) {
        sent();
        return await keepForLater(change, product.stock);
      }
      if (stockChangesInFlight(product.id) === 1 || count !== undefined) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) });
        void queryClient.invalidateQueries({
          queryKey: queryKeys.product(catalogue, product.id),
          exact: true,
        });
      }
      throw error;
    }
  } finally {
    sent();
    await refreshAfterStockChanges(queryClient, [change]);
  }
}
