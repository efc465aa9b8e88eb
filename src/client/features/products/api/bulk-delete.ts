import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { removeProducts, useProductWrite } from './product-write.js';

/** POST /products/bulk-delete {ids} (1 to 100) → {message, deleted}: all of them or none. */
const bulkDeleteProducts = (catalogue: CatalogueRef, ids: string[]) =>
  apiRequest(() => import('@shared/schemas/catalogue.js').then((m) => m.bulkDeleteResponseSchema), {
    method: 'POST',
    url: productsUrl(catalogue, '/bulk-delete'),
    data: { ids },
  });

/** The deleted products leave the cache and the list is refreshed; then the screen's onSuccess. */
export const useBulkDeleteProducts = ({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(ids: string[]) => ReturnType<typeof bulkDeleteProducts>>;
} = {}) =>
  useProductWrite({
    action: 'Deleting products',
    send: bulkDeleteProducts,
    refresh: (queries, catalogue, ids) => removeProducts(queries, catalogue, ids),
    mutationConfig,
  });
