import { productMutationResponseSchema } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { sourceHeader } from '@/lib/source-header.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { progressHandler, toProductFormData, type ProductUpload } from './product-multipart.js';
import { useProductWrite } from './product-write.js';

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
export const useCreateProduct = ({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(upload: ProductUpload) => ReturnType<typeof createProduct>>;
} = {}) =>
  useProductWrite({
    action: 'Creating products',
    send: createProduct,
    refresh: (queries, catalogue) =>
      queries.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
    mutationConfig,
  });
