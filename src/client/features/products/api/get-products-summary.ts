import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query-client.js';
import type { ProductListParams } from './get-products.js';

/** What the summary depends on: the list's search and filter (its order changes nothing). */
export type SummaryParams = Pick<ProductListParams, 'q' | 'stock'>;

/** GET /products/summary?q&stock → {count, units, value} (value in dollars). */
const getProductsSummary = ({ q, stock }: SummaryParams, signal?: AbortSignal) =>
  apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/catalogue.js').then((m) => m.productSummarySchema),
    { url: '/products/summary', params: { q: q || undefined, stock }, signal },
  );

/** Cached beside the list (under 'products'), so that whatever refreshes the list refreshes it. */
export const productsSummaryQueryOptions = ({ q, stock }: SummaryParams) =>
  queryOptions({
    queryKey: queryKeys.productSummary({ q, stock }),
    queryFn: ({ signal }) => getProductsSummary({ q, stock }, signal),
    retry: 1,
  });

/** The previous figures stay while a new search or filter's load (no flicker to nothing). */
export const useProductsSummary = (params: SummaryParams) =>
  useQuery({ ...productsSummaryQueryOptions(params), placeholderData: keepPreviousData });
