import { infiniteQueryOptions, queryOptions, useQuery } from '@tanstack/react-query';
import type { StockReason } from '@shared/constants.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** The detail page shows this many of a product's latest stock movements. */
export const MOVEMENTS_SHOWN = 20;

/** Which page of which movements: past `cursor`, only those given `reason` when set. */
interface MovementsPage {
  cursor?: string | undefined;
  reason?: StockReason | undefined;
}

/** GET /products/{id}/movements?limit&cursor&reason → {movements, nextCursor}, newest first. */
const getMovements = (
  catalogue: CatalogueRef,
  id: string,
  page: MovementsPage = {},
  signal?: AbortSignal,
) =>
  apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/catalogue.js').then((m) => m.movementsResponseSchema),
    {
      url: productsUrl(catalogue, `/${encodeURIComponent(id)}/movements`),
      params: {
        limit: MOVEMENTS_SHOWN,
        ...(page.cursor ? { cursor: page.cursor } : {}),
        ...(page.reason ? { reason: page.reason } : {}),
      },
      signal,
    },
  );

/** Under the product's key: refreshed when the product is, gone when it is deleted. */
export const movementsQueryOptions = (catalogue: CatalogueRef, id: string) =>
  queryOptions({
    queryKey: queryKeys.movements(catalogue, id),
    queryFn: ({ signal }) => getMovements(catalogue, id, {}, signal),
    retry: 1,
  });

/**
 * Every page read so far of the product's movements (of one reason, or all: ''), for 'Load
 * more'. Under the product's movements key, so a stock change refreshes it too.
 */
export const movementPagesQueryOptions = (
  catalogue: CatalogueRef,
  id: string,
  reason: StockReason | '',
) =>
  infiniteQueryOptions({
    queryKey: [...queryKeys.movements(catalogue, id), 'pages', reason],
    queryFn: ({ pageParam, signal }) =>
      getMovements(catalogue, id, { cursor: pageParam, reason: reason || undefined }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    retry: 1,
  });

export const useMovements = (id: string) => useQuery(movementsQueryOptions(useCatalogueRef(), id));
