import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query-client.js';

/** GET /products/{id} → {product}. */
const getProduct = async (id: string, signal?: AbortSignal) => {
  const { product } = await apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/products.js').then((m) => m.productResponseSchema),
    {
      url: `/products/${encodeURIComponent(id)}`,
      signal,
    },
  );
  return product;
};

/** Cached as ['editProduct', id]; retried once. */
export const productQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.product(id),
    queryFn: ({ signal }) => getProduct(id, signal),
    retry: 1,
  });

export const useProduct = (id: string) => useQuery(productQueryOptions(id));
