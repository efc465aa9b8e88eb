import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productMutationResponseSchema } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { needsConnection } from '@/lib/needs-connection.js';
import { queryKeys, type MutationConfig } from '@/lib/query-client.js';
import { progressHandler, toProductFormData, type ProductUpload } from './product-multipart.js';

/** POST /products (multipart) → {message, product}. */
const createProduct = (upload: ProductUpload) =>
  apiRequest(productMutationResponseSchema, {
    method: 'POST',
    url: '/products',
    data: toProductFormData(upload),
    onUploadProgress: progressHandler(upload.onProgress),
  });

/** A new product refreshes the list; then the screen's own onSuccess. */
export function useCreateProduct({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof createProduct> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: needsConnection('Creating products', createProduct),
    onSuccess: async (data, variables, ...rest) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.products });
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
