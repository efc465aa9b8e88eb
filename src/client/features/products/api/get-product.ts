import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** GET /products/{id} → {product}. */
const getProduct = async (catalogue: CatalogueRef, id: string, signal?: AbortSignal) => {
  const { product } = await apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/products.js').then((m) => m.productResponseSchema),
    {
      url: productsUrl(catalogue, `/${encodeURIComponent(id)}`),
      signal,
    },
  );
  return product;
};

/** Cached as ['editProduct', catalogue, id]; retried once. */
export const productQueryOptions = (catalogue: CatalogueRef, id: string) =>
  queryOptions({
    queryKey: queryKeys.product(catalogue, id),
    queryFn: ({ signal }) => getProduct(catalogue, id, signal),
    retry: 1,
  });

export const useProduct = (id: string) => useQuery(productQueryOptions(useCatalogueRef(), id));
