import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { CountDetail, CountLine } from '@shared/schemas/counts/counts.js';
import { apiRequest } from '@/lib/api-client.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { queryKeys } from '@/lib/query/query-client.js';

/**
 * A catalogue's stock counts: `/counts…`, or `/catalogues/{id}/counts…` for a shared one. Here
 * rather than in features/counts: /scan counts into them and the live events patch their lines.
 */
export const countsUrl = (catalogue: CatalogueRef, rest = '') =>
  `${catalogue ? `/catalogues/${encodeURIComponent(catalogue)}` : ''}/counts${rest}`;

const load = () => import('@shared/schemas/counts/counts.js');

/** GET …/counts → the newest counts, newest first. */
export const countsQueryOptions = (catalogue: CatalogueRef) =>
  queryOptions({
    queryKey: queryKeys.countList(catalogue),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(() => load().then((m) => m.countsResponseSchema), {
          url: countsUrl(catalogue),
          signal,
        })
      ).counts,
  });

export const useCounts = (catalogue: CatalogueRef) => useQuery(countsQueryOptions(catalogue));

type CountPages = InfiniteData<CountDetail, string | undefined>;

/** GET …/counts/{id}?cursor= → the count and a page of its lines; 'Load more' reads the next. */
export const countQueryOptions = (catalogue: CatalogueRef, id: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.count(catalogue, id),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(() => load().then((m) => m.countDetailSchema), {
        url: countsUrl(catalogue, `/${encodeURIComponent(id)}`),
        params: pageParam ? { cursor: pageParam } : {},
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    retry: 1,
  });

export const useCount = (catalogue: CatalogueRef, id: string) =>
  useInfiniteQuery(countQueryOptions(catalogue, id));

/** A line's identity within its count. */
export const lineKey = (line: { productId: string; locationId: string }) =>
  `${line.productId}:${line.locationId}`;

type LineNews = Pick<CountLine, 'productId' | 'locationId' | 'counted' | 'countedBy' | 'countedAt'>;

/**
 * Writes a line counted here or elsewhere into the cached count, where its answer would show it:
 * counted, by whom and when. Whether it could: a line not loaded yet, or one whose variances the
 * answer shows (they follow from expected and the cost), needs the count read again.
 */
export function patchCountLine(
  queryClient: QueryClient,
  catalogue: CatalogueRef,
  countId: string,
  news: LineNews,
): boolean {
  const data = queryClient.getQueryData<CountPages>(queryKeys.count(catalogue, countId));
  if (!data) return false;
  const wanted = lineKey(news);
  const found = data.pages.some((page) => page.lines.some((line) => lineKey(line) === wanted));
  if (!found || data.pages.some((page) => !page.expectedHidden)) return false;
  queryClient.setQueryData<CountPages>(queryKeys.count(catalogue, countId), {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      lines: page.lines.map((line) =>
        lineKey(line) === wanted && line.countedAt <= news.countedAt
          ? {
              ...line,
              counted: news.counted,
              countedBy: news.countedBy,
              countedAt: news.countedAt,
            }
          : line,
      ),
    })),
  });
  return true;
}
