import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { needsConnection } from '@/lib/needs-connection.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';

/** DELETE /products/{id} → {message}. */
const deleteProduct = (catalogue: CatalogueRef, id: string) =>
  apiRequest(messageResponse, {
    method: 'DELETE',
    url: productsUrl(catalogue, `/${encodeURIComponent(id)}`),
  });

/** A deleted product leaves the cache and the list is refreshed; then the screen's. */
export function useDeleteProduct({
  mutationConfig,
}: { mutationConfig?: MutationConfig<(id: string) => ReturnType<typeof deleteProduct>> } = {}) {
  const queryClient = useQueryClient();
  const catalogue = useCatalogueRef();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: needsConnection('Deleting products', (id: string) => deleteProduct(catalogue, id)),
    onSuccess: async (data, id, ...rest) => {
      queryClient.removeQueries({ queryKey: queryKeys.product(catalogue, id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) });
      await onSuccess?.(data, id, ...rest);
    },
  });
}
