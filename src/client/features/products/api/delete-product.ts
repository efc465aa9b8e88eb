import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { removeProducts, useProductWrite } from './product-write.js';

/** DELETE /products/{id} → {message}. */
const deleteProduct = (catalogue: CatalogueRef, id: string) =>
  apiRequest(messageResponse, {
    method: 'DELETE',
    url: productsUrl(catalogue, `/${encodeURIComponent(id)}`),
  });

/** A deleted product leaves the cache and the list is refreshed; then the screen's. */
export const useDeleteProduct = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<(id: string) => ReturnType<typeof deleteProduct>> } = {}) =>
  useProductWrite({
    action: 'Deleting products',
    send: deleteProduct,
    refresh: (queries, catalogue, id) => removeProducts(queries, catalogue, [id]),
    mutationConfig,
  });
