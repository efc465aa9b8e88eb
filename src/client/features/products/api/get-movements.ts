import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query-client.js';

/** The detail page shows this many of a product's latest stock movements. */
export const MOVEMENTS_SHOWN = 20;

/** GET /products/{id}/movements?limit → {movements, nextCursor}, newest first. */
const getMovements = (id: string, signal?: AbortSignal) =>
  apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/catalogue.js').then((m) => m.movementsResponseSchema),
    {
      url: `/products/${encodeURIComponent(id)}/movements`,
      params: { limit: MOVEMENTS_SHOWN },
      signal,
    },
  );

/** Under the product's key: refreshed when the product is, gone when it is deleted. */
export const movementsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.movements(id),
    queryFn: ({ signal }) => getMovements(id, signal),
    retry: 1,
  });

export const useMovements = (id: string) => useQuery(movementsQueryOptions(id));
