import { keepPreviousData, queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { queryKeys } from '@/lib/query/query-client.js';
import type { ProductListParams } from './get-products.js';

/**
 * What the summary depends on: the list's search and filters (its order changes nothing). With a
 * location, its units and values are those held there and under it.
 */
export type SummaryParams = Pick<ProductListParams, 'q' | 'stock' | 'tag' | 'location'>;

/** GET /products/summary?q&stock&tag&location → {count, units, value, valueAtCost?} (dollars). */
const getProductsSummary = (
  catalogue: CatalogueRef,
  { q, stock, tag, location }: SummaryParams,
  signal?: AbortSignal,
) =>
  apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/catalogue.js').then((m) => m.productSummarySchema),
    {
      url: productsUrl(catalogue, '/summary'),
      params: { q: q || undefined, stock, tag, location },
      signal,
    },
  );

/** Cached beside the list (under 'products'), so that whatever refreshes the list refreshes it. */
export const productsSummaryQueryOptions = (
  catalogue: CatalogueRef,
  { q, stock, tag, location }: SummaryParams,
) =>
  queryOptions({
    queryKey: queryKeys.productSummary(catalogue, { q, stock, tag, location }),
    queryFn: ({ signal }) => getProductsSummary(catalogue, { q, stock, tag, location }, signal),
    retry: 1,
  });

/** The previous figures stay while a new search or filter's load (no flicker to nothing). */
export function useProductsSummary(params: SummaryParams) {
  const catalogue = useCatalogueRef();
  return useQuery({
    ...productsSummaryQueryOptions(catalogue, params),
    placeholderData: keepPreviousData,
  });
}

/** The stock filters' tabs, each with the summary whose count it shows. */
export const STOCK_TABS = [undefined, 'out'] as const;

/**
 * How many products each stock filter's tab would show for the list's search, tag and location:
 * the summaries of the whole selection and of 'Out of Stock' (one of them is the list's own,
 * shared from the cache), in the tabs' order: All, To reorder, Out of Stock.
 */
export function useStockFilterCounts({ q, tag, location }: Omit<SummaryParams, 'stock'>) {
  const catalogue = useCatalogueRef();
  const results = useQueries({
    queries: STOCK_TABS.map((stock) => ({
      ...productsSummaryQueryOptions(catalogue, { q, stock, tag, location }),
      placeholderData: keepPreviousData,
    })),
  });
  return {
    pending: results.some((result) => result.isPending),
    // 'To reorder' counts what the whole selection's summary says is to reorder.
    counts: [results[0]?.data?.count, results[0]?.data?.toReorder, results[1]?.data?.count],
  };
}
