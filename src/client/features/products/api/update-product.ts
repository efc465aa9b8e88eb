import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productMutationResponseSchema } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { needsConnection } from '@/lib/needs-connection.js';
import { queryKeys, type MutationConfig } from '@/lib/query-client.js';
import { progressHandler, toProductFormData, type ProductUpload } from './product-multipart.js';

/** PATCH /products/{id} (multipart, every field optional) → {message, product}. */
const updateProduct = ({ id, ...upload }: ProductUpload & { id: string }) =>
  apiRequest(productMutationResponseSchema, {
    method: 'PATCH',
    url: `/products/${encodeURIComponent(id)}`,
    data: toProductFormData(upload, { clearBlankCodes: true }),
    onUploadProgress: progressHandler(upload.onProgress),
  });

/** Edit success refreshes the list and the edited product; then the screen's. */
export function useUpdateProduct({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updateProduct> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: needsConnection('Editing products', updateProduct),
    onSuccess: async (data, variables, ...rest) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.products }),
        queryClient.invalidateQueries({ queryKey: queryKeys.product(variables.id) }),
      ]);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
