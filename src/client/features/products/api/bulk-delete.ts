import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { needsConnection } from '@/lib/needs-connection.js';
import { queryKeys, type MutationConfig } from '@/lib/query-client.js';

/** POST /products/bulk-delete {ids} (1 to 100) → {message, deleted}: all of them or none. */
export const bulkDeleteProducts = (ids: string[]) =>
  apiRequest(() => import('@shared/schemas/catalogue.js').then((m) => m.bulkDeleteResponseSchema), {
    method: 'POST',
    url: '/products/bulk-delete',
    data: { ids },
  });

/** The deleted products leave the cache and the list is refreshed; then the screen's onSuccess. */
export function useBulkDeleteProducts({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof bulkDeleteProducts> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: needsConnection('Deleting products', bulkDeleteProducts),
    onSuccess: async (data, ids, ...rest) => {
      for (const id of ids) queryClient.removeQueries({ queryKey: queryKeys.product(id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.products });
      await onSuccess?.(data, ids, ...rest);
    },
  });
}
