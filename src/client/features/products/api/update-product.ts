import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productMutationResponseSchema } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { needsConnection } from '@/lib/needs-connection.js';
import { sourceHeader } from '@/lib/source-header.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { progressHandler, toProductFormData, type ProductUpload } from './product-multipart.js';

/** PATCH /products/{id} (multipart, every field optional) → {message, product}. */
type ProductEdit = ProductUpload & { id: string };

const updateProduct = (catalogue: CatalogueRef, { id, ...upload }: ProductEdit) =>
  apiRequest(productMutationResponseSchema, {
    method: 'PATCH',
    headers: sourceHeader('form'),
    url: productsUrl(catalogue, `/${encodeURIComponent(id)}`),
    data: toProductFormData(upload, { clearBlankCodes: true }),
    onUploadProgress: progressHandler(upload.onProgress),
  });

/** Edit success refreshes the list and the edited product; then the screen's. */
export function useUpdateProduct({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(edit: ProductEdit) => ReturnType<typeof updateProduct>>;
} = {}) {
  const queryClient = useQueryClient();
  const catalogue = useCatalogueRef();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: needsConnection('Editing products', (edit: ProductEdit) =>
      updateProduct(catalogue, edit),
    ),
    onSuccess: async (data, variables, ...rest) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.product(catalogue, variables.id) }),
      ]);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
