import { useQuery } from '@tanstack/react-query';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { searchProducts } from '@/lib/products/search-products.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** The product filter's choices: the first products that match what was typed. */
export const useProductSearch = (catalogue: CatalogueRef, q: string) =>
  useQuery({
    queryKey: queryKeys.activityList(catalogue, { productSearch: q }),
    queryFn: ({ signal }) => searchProducts(catalogue, q, signal),
    enabled: q.trim() !== '',
    retry: 1,
  });
