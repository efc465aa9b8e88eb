import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** GET /products?q&limit → the first products whose name matches: the product filter's choices. */
const searchProducts = (catalogue: CatalogueRef, q: string, signal?: AbortSignal) =>
  apiRequest(() => import('@shared/schemas/products.js').then((m) => m.productListResponseSchema), {
    url: productsUrl(catalogue),
    params: { q, limit: 8 },
    signal,
  });

export const useProductSearch = (catalogue: CatalogueRef, q: string) =>
  useQuery({
    queryKey: queryKeys.activityList(catalogue, { productSearch: q }),
    queryFn: ({ signal }) => searchProducts(catalogue, q, signal),
    enabled: q.trim() !== '',
    retry: 1,
  });
