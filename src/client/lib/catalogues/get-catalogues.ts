import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** GET /catalogues → {catalogues}: the user's, the personal one first, then by name. */
const getCatalogues = async (signal?: AbortSignal) => {
  const { catalogues } = await apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/catalogues.js').then((m) => m.cataloguesResponseSchema),
    { url: '/catalogues', signal },
  );
  return catalogues;
};

/** Cached as 'catalogues' (kept for offline too); retried once. */
export const cataloguesQueryOptions = queryOptions({
  queryKey: queryKeys.catalogues,
  queryFn: ({ signal }) => getCatalogues(signal),
  retry: 1,
});

export const useCatalogues = () => useQuery(cataloguesQueryOptions);
