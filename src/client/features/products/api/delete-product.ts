import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema } from '@shared/schemas/common.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query-client.js';

/** DELETE /products/{id} → {message}. */
const deleteProduct = (id: string) =>
  apiRequest(messageSchema, { method: 'DELETE', url: `/products/${encodeURIComponent(id)}` });

/** A deleted product leaves the cache and the list is refreshed (spec section 4). */
export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: async (_data, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.product(id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.products });
    },
  });
}
