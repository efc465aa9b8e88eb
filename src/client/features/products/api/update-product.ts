import { productMutationResponseSchema } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { sourceHeader } from '@/lib/source-header.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { progressHandler, toProductFormData, type ProductUpload } from './product-multipart.js';
import { useProductWrite } from './product-write.js';

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
export const useUpdateProduct = ({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(edit: ProductEdit) => ReturnType<typeof updateProduct>>;
} = {}) =>
  useProductWrite({
    action: 'Editing products',
    send: updateProduct,
    refresh: (queries, catalogue, { id }) =>
      Promise.all([
        queries.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
        queries.invalidateQueries({ queryKey: queryKeys.product(catalogue, id) }),
      ]),
    mutationConfig,
  });
