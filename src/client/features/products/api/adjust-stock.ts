import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StockReason } from '@shared/constants.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { notifyError } from '@/lib/notify.js';
import { sourceHeader } from '@/lib/source-header.js';
import { cancelProductReads, noteStockWrite, patchCachedProduct } from '@/lib/product-cache.js';
import { mutationKeys, queryKeys, type MutationConfig } from '@/lib/query-client.js';
import {
  IDEMPOTENCY_HEADER,
  gotNoAnswer,
  mustQueueStockChange,
  newChangeKey,
  queueStockChange,
} from '@/lib/stock-queue/index.js';

/** Units added (`delta`, negative: taken away, never 0) or the stock as counted (`count`). */
export type StockChange = {
  id: string;
  reason?: StockReason | undefined;
  note?: string | undefined;
} & ({ delta: number; count?: undefined } | { count: number; delta?: undefined });

/**
 * A change as sent: its catalogue, its Idempotency-Key, and the product's name for a refusal said
 * later.
 */
type KeyedStockChange = StockChange & { catalogue: CatalogueRef; key: string; name: string };

/**
 * POST /products/{id}/stock {delta | count, reason?, note?} → {message, product}; 409 when a
 * delta would take the stock below 0. The key makes a resend of the same change apply once.
 */
const adjustStock = ({ catalogue, id, key, name: _name, ...change }: KeyedStockChange) =>
  apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productMutationResponseSchema),
    {
      method: 'POST',
      url: productsUrl(catalogue, `/${encodeURIComponent(id)}/stock`),
      headers: { [IDEMPOTENCY_HEADER]: key, ...sourceHeader('stepper') },
      // Only what was given: an empty note or reason is none.
      data: Object.fromEntries(
        Object.entries(change).filter(([, value]) => value !== undefined && value !== ''),
      ),
    },
  );

/** Keeps a change to send when the server can be reached (lib/stock-queue). */
const keepForLater = ({ catalogue, id, key, name, delta, count, reason, note }: KeyedStockChange) =>
  queueStockChange({
    key,
    catalogueId: catalogue,
    productId: id,
    productName: name,
    delta,
    count,
    reason,
    note: note || undefined,
    madeAt: new Date().toISOString(),
  }).catch(notifyError);

/** The stock as a change leaves it; `undo` takes a delta back (a count is read again instead). */
const applyChange =
  (change: StockChange, undo = false) =>
  <T extends { stock: number }>(product: T): T => {
    if (change.count !== undefined) return undo ? product : { ...product, stock: change.count };
    return { ...product, stock: product.stock + (undo ? -change.delta : change.delta) };
  };

/**
 * A stock change shows at once wherever the product is shown, before the server answers. Offline,
 * or behind changes still waiting, it is kept in the browser's queue instead and sent later in
 * order; one whose request got no answer joins the queue with the same key. A refusal
 * takes back exactly that change (other changes in flight keep theirs) and reads the product again;
 * an accepted one writes the server's count once no other change is in flight, and marks the list
 * stale rather than re-reading it (a sort by stock would move the card under the pointer). Then the
 * screen's own callbacks run.
 */
export function useAdjustStock({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof adjustStock> } = {}) {
  const queryClient = useQueryClient();
  const catalogue = useCatalogueRef();
  const { onMutate, onSuccess, onError, onSettled, ...config } = mutationConfig ?? {};
  // This change is one of them: it still counts while its own callbacks run.
  const othersInFlight = (id: string) =>
    queryClient.isMutating({
      mutationKey: mutationKeys.stockChange,
      predicate: (mutation) => (mutation.state.variables as StockChange | undefined)?.id === id,
    }) > 1;
  const mutation = useMutation({
    ...config,
    mutationKey: mutationKeys.stockChange,
    mutationFn: adjustStock,
    onMutate: async (change, context) => {
      await cancelProductReads(queryClient, catalogue, change.id);
      patchCachedProduct(queryClient, catalogue, change.id, applyChange(change));
      return onMutate?.(change, context);
    },
    onSuccess: async (data, change, ...rest) => {
      noteStockWrite(data.product.id, data.product.updatedAt);
      if (!othersInFlight(change.id)) {
        patchCachedProduct(queryClient, catalogue, change.id, (product) => ({
          ...product,
          stock: data.product.stock,
        }));
      }
      await onSuccess?.(data, change, ...rest);
    },
    onError: async (error, change, ...rest) => {
      patchCachedProduct(queryClient, catalogue, change.id, applyChange(change, true));
      // Not refused, just not heard: it waits in the queue, shown as such, rather than lost.
      if (gotNoAnswer(error)) return void (await keepForLater(change));
      // Refused for a reason the page may not show (sold elsewhere meanwhile), or a count that
      // cannot be taken back by arithmetic: read the truth.
      if (!othersInFlight(change.id) || change.count !== undefined) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) });
        void queryClient.invalidateQueries({
          queryKey: queryKeys.product(catalogue, change.id),
          exact: true,
        });
      }
      await onError?.(error, change, ...rest);
    },
    onSettled: async (data, error, change, ...rest) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.productSummaries(catalogue) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.movements(catalogue, change.id) }),
        queryClient.invalidateQueries({
          queryKey: queryKeys.products(catalogue),
          refetchType: 'none',
        }),
      ]);
      await onSettled?.(data, error, change, ...rest);
    },
  });
  /** Sends a change now, or keeps it for later when it must wait. */
  const send = (change: StockChange & { name: string }) => {
    const keyed = { ...change, catalogue, key: newChangeKey() };
    if (mustQueueStockChange()) void keepForLater(keyed);
    else mutation.mutate(keyed);
  };
  return { send, isPending: mutation.isPending };
}
