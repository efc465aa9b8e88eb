import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { ACTIVITY_KINDS, type ActivityKind } from '@shared/activity.js';
import { apiRequest } from '@/lib/api-client.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { activityUrl } from './activity-url.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** What narrows the log: the URL's filters of the Activity screen. */
export interface ActivityFilters {
  product?: string | undefined;
  member?: string | undefined;
  kind?: ActivityKind | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const isKind = (value: string | null): value is ActivityKind =>
  (ACTIVITY_KINDS as readonly string[]).includes(value ?? '');

/** The filters as the URL holds them (?product=&member=&kind=&from=&to=). */
export const activityFiltersOf = (params: URLSearchParams): ActivityFilters => {
  const kind = params.get('kind');
  return {
    product: params.get('product') ?? undefined,
    member: params.get('member') ?? undefined,
    kind: isKind(kind) ? kind : undefined,
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
  };
};

/** GET …/activity?product&member&kind&from&to&cursor&limit → {entries, nextCursor}, newest first. */
const getActivity = (
  catalogue: CatalogueRef,
  filters: ActivityFilters & { limit?: number; cursor?: string | undefined },
  signal?: AbortSignal,
) =>
  apiRequest(() => import('@shared/schemas/activity.js').then((m) => m.activityResponseSchema), {
    url: activityUrl(catalogue),
    params: Object.fromEntries(
      Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''),
    ),
    signal,
  });

/** Every page read so far, for 'Load more'; refetched when the window gets focus again. */
export const activityQueryOptions = (
  catalogue: CatalogueRef,
  filters: ActivityFilters,
  limit?: number,
) =>
  infiniteQueryOptions({
    queryKey: queryKeys.activityList(catalogue, { ...filters, limit }),
    queryFn: ({ pageParam, signal }) =>
      getActivity(catalogue, { ...filters, limit, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    refetchOnWindowFocus: 'always',
    retry: 1,
  });

export const useActivity = (catalogue: CatalogueRef, filters: ActivityFilters, limit?: number) =>
  useInfiniteQuery(activityQueryOptions(catalogue, filters, limit));
