import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { needsConnection } from '@/lib/needs-connection.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';

/** POST /products/bulk-delete {ids} (1 to 100) → {message, deleted}: all of them or none. */
const bulkDeleteProducts = (catalogue: CatalogueRef, ids: string[]) =>
  apiRequest(() => import('@shared/schemas/catalogue.js').then((m) => m.bulkDeleteResponseSchema), {
    method: 'POST',
    url: productsUrl(catalogue, '/bulk-delete'),
    data: { ids },
  });

/** The deleted products leave the cache and the list is refreshed; then the screen's onSuccess. */
export function useBulkDeleteProducts({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(ids: string[]) => ReturnType<typeof bulkDeleteProducts>>;
} = {}) {
  const queryClient = useQueryClient();
  const catalogue = useCatalogueRef();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: needsConnection('Deleting products', (ids: string[]) =>
      bulkDeleteProducts(catalogue, ids),
    ),
    onSuccess: async (data, ids, ...rest) => {
      for (const id of ids)
        queryClient.removeQueries({ queryKey: queryKeys.product(catalogue, id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) });
      await onSuccess?.(data, ids, ...rest);
    },
  });
}
