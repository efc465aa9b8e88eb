import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productMutationResponseSchema } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { needsConnection } from '@/lib/needs-connection.js';
import { sourceHeader } from '@/lib/source-header.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { progressHandler, toProductFormData, type ProductUpload } from './product-multipart.js';

/** POST /products (multipart) → {message, product}. */
const createProduct = (catalogue: CatalogueRef, upload: ProductUpload) =>
  apiRequest(productMutationResponseSchema, {
    method: 'POST',
    headers: sourceHeader('form'),
    url: productsUrl(catalogue),
    data: toProductFormData(upload),
    onUploadProgress: progressHandler(upload.onProgress),
  });

/** A new product refreshes the list; then the screen's own onSuccess. */
export function useCreateProduct({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(upload: ProductUpload) => ReturnType<typeof createProduct>>;
} = {}) {
  const queryClient = useQueryClient();
  const catalogue = useCatalogueRef();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: needsConnection('Creating products', (upload: ProductUpload) =>
      createProduct(catalogue, upload),
    ),
    onSuccess: async (data, variables, ...rest) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) });
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
