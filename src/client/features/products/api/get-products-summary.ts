import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query-client.js';
import type { ProductListParams } from './get-products.js';

/** What the summary depends on: the list's search and filter (its order changes nothing). */
export type SummaryParams = Pick<ProductListParams, 'q' | 'stock' | 'tag'>;

/** GET /products/summary?q&stock&tag → {count, units, value, valueAtCost?} (in dollars). */
const getProductsSummary = ({ q, stock, tag }: SummaryParams, signal?: AbortSignal) =>
  apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/catalogue.js').then((m) => m.productSummarySchema),
    { url: '/products/summary', params: { q: q || undefined, stock, tag }, signal },
  );

/** Cached beside the list (under 'products'), so that whatever refreshes the list refreshes it. */
export const productsSummaryQueryOptions = ({ q, stock, tag }: SummaryParams) =>
  queryOptions({
    queryKey: queryKeys.productSummary({ q, stock, tag }),
    queryFn: ({ signal }) => getProductsSummary({ q, stock, tag }, signal),
    retry: 1,
  });

/** The previous figures stay while a new search or filter's load (no flicker to nothing). */
export const useProductsSummary = (params: SummaryParams) =>
  useQuery({ ...productsSummaryQueryOptions(params), placeholderData: keepPreviousData });
