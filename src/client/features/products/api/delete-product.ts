import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { needsConnection } from '@/lib/needs-connection.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { queryKeys, type MutationConfig } from '@/lib/query-client.js';

/** DELETE /products/{id} → {message}. */
export const deleteProduct = (id: string) =>
  apiRequest(messageResponse, { method: 'DELETE', url: `/products/${encodeURIComponent(id)}` });

/** A deleted product leaves the cache and the list is refreshed; then the screen's. */
export function useDeleteProduct({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteProduct> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: needsConnection('Deleting products', deleteProduct),
    onSuccess: async (data, id, ...rest) => {
      queryClient.removeQueries({ queryKey: queryKeys.product(id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.products });
      await onSuccess?.(data, id, ...rest);
    },
  });
}
