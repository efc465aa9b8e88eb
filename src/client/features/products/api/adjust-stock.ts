import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { mutationKeys, queryKeys, type MutationConfig } from '@/lib/query-client.js';
import { cancelProductReads, patchCachedProduct } from './product-cache.js';

export interface StockChange {
  id: string;
  /** Units added (negative: taken away); never 0. */
  delta: number;
  note?: string | undefined;
}

/** POST /products/{id}/stock {delta, note?} → {message, product}; 409 when it would go below 0. */
export const adjustStock = ({ id, delta, note }: StockChange) =>
  apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productMutationResponseSchema),
    {
      method: 'POST',
      url: `/products/${encodeURIComponent(id)}/stock`,
      data: note ? { delta, note } : { delta },
    },
  );

const shiftStock =
  (delta: number) =>
  <T extends { stock: number }>(product: T): T => ({ ...product, stock: product.stock + delta });

/**
 * A stock change shows at once wherever the product is shown, before the server answers. A refusal
 * takes back exactly that change (other changes in flight keep theirs) and reads the product again;
 * an accepted one writes the server's count once no other change is in flight, and marks the list
 * stale rather than re-reading it (a sort by stock would move the card under the pointer). Then the
 * screen's own callbacks run.
 */
export function useAdjustStock({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof adjustStock> } = {}) {
  const queryClient = useQueryClient();
  const { onMutate, onSuccess, onError, onSettled, ...config } = mutationConfig ?? {};
  // This change is one of them: it still counts while its own callbacks run.
  const othersInFlight = (id: string) =>
    queryClient.isMutating({
      mutationKey: mutationKeys.stockChange,
      predicate: (mutation) => (mutation.state.variables as StockChange | undefined)?.id === id,
    }) > 1;
  return useMutation({
    ...config,
    mutationKey: mutationKeys.stockChange,
    mutationFn: adjustStock,
    onMutate: async (change, context) => {
      await cancelProductReads(queryClient, change.id);
      patchCachedProduct(queryClient, change.id, shiftStock(change.delta));
      return onMutate?.(change, context);
    },
    onSuccess: async (data, change, ...rest) => {
      if (!othersInFlight(change.id)) {
        patchCachedProduct(queryClient, change.id, (product) => ({
          ...product,
          stock: data.product.stock,
        }));
      }
      await onSuccess?.(data, change, ...rest);
    },
    onError: async (error, change, ...rest) => {
      patchCachedProduct(queryClient, change.id, shiftStock(-change.delta));
      // Refused for a reason the page may not show (sold elsewhere meanwhile): read the truth.
      if (!othersInFlight(change.id)) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.products });
        void queryClient.invalidateQueries({ queryKey: queryKeys.product(change.id), exact: true });
      }
      await onError?.(error, change, ...rest);
    },
    onSettled: async (data, error, change, ...rest) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.productSummaries }),
        queryClient.invalidateQueries({ queryKey: queryKeys.movements(change.id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.products, refetchType: 'none' }),
      ]);
      await onSettled?.(data, error, change, ...rest);
    },
  });
}
