import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CountCreate } from '@shared/schemas/counts/counts.js';
import type { ProductListItem } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { apiDownload } from '@/lib/api-download.js';
import { getErrorStatus, isUnreachable } from '@/lib/api-error.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { SEARCH_RESULTS, searchProducts } from '@/lib/products/search-products.js';
import { countsUrl } from '@/lib/counts/counts-query.js';
import { saveDownload } from '@/lib/download.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { sourceHeader } from '@/lib/source-header.js';

export { lineKey, useCount, useCounts } from '@/lib/counts/counts-query.js';

/** The counts' shapes, loaded beside their requests: the zod schemas stay out of the screens. */
const load = () => import('@shared/schemas/counts/counts.js');

const countPath = (catalogue: CatalogueRef, id: string, rest = '') =>
  countsUrl(catalogue, `/${encodeURIComponent(id)}${rest}`);

/** POST …/counts {name?, scope, blind} → {message, count}: the count, open for counting. */
export function useStartCount(catalogue: CatalogueRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<CountCreate> & Pick<CountCreate, 'scope'>) =>
      apiRequest(() => load().then((m) => m.countSavedSchema), {
        method: 'POST',
        url: countsUrl(catalogue),
        data: body,
      }),
    onSuccess: ({ message }) => notifySuccess(message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.counts(catalogue) }),
  });
}

/** What a reviewer does with a count. */
export type CountAction =
  { kind: 'review' } | { kind: 'post'; uncountedAsZero: boolean } | { kind: 'cancel' };

/**
 * POST …/counts/{id}/review, /post {uncountedAsZero} or /cancel → {message, …}: the message is
 * shown and the count read again; a posting changed stock, so the products read again too.
 */
export function useCountAction(catalogue: CatalogueRef, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: CountAction) => {
      const url = countPath(catalogue, id, `/${action.kind}`);
      switch (action.kind) {
        case 'review':
          return apiRequest(() => load().then((m) => m.countReviewedSchema), {
            method: 'POST',
            url,
          });
        case 'post':
          return apiRequest(() => load().then((m) => m.countPostedSchema), {
            method: 'POST',
            url,
            data: { uncountedAsZero: action.uncountedAsZero },
          });
        case 'cancel':
          return apiRequest(() => load().then((m) => m.countSavedSchema), { method: 'POST', url });
      }
    },
    onSuccess: ({ message }) => notifySuccess(message),
    onSettled: (_answer, _error, action) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.counts(catalogue) }),
        action.kind === 'post' &&
          queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
      ]),
  });
}

/** A catalogue's activity log: `/products/activity…` or `/catalogues/{id}/activity…`. */
const activityUrl = (catalogue: CatalogueRef, rest = '') =>
  catalogue
    ? `/catalogues/${encodeURIComponent(catalogue)}/activity${rest}`
    : `/products/activity${rest}`;

/** Postings that may still be undone are at most this old. */
const UNDO_DAYS = 7;

/**
 * The activity entry of a count's posting, while the user may undo it: the newest postings of
 * the last 7 days, read from the log (the undo is the log's, one entry for the whole posting).
 */
export function usePostingEntry(catalogue: CatalogueRef, countId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.activity(catalogue), 'count.posted', countId],
    queryFn: async ({ signal }) => {
      const from = new Date(Date.now() - UNDO_DAYS * 24 * 60 * 60 * 1000).toISOString();
      const { entries } = await apiRequest(
        () => import('@shared/schemas/activity.js').then((m) => m.activityResponseSchema),
        {
          url: activityUrl(catalogue),
          params: { kind: 'count.posted', from, limit: 100 },
          signal,
        },
      );
      return entries.find((entry) => entry.data.countId === countId && entry.undoable) ?? null;
    },
    enabled,
    retry: 1,
  });
}

/** POST …/activity/{entryId}/undo: the posting taken back whole, the count in review again. */
export function useUndoPosting(catalogue: CatalogueRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entryId: string) =>
      apiRequest(() => import('@shared/schemas/activity.js').then((m) => m.undoResponseSchema), {
        method: 'POST',
        url: activityUrl(catalogue, `/${encodeURIComponent(entryId)}/undo`),
        headers: sourceHeader('activity'),
      }),
    onSuccess: () => notifySuccess('Posting undone: the count is in review again'),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.counts(catalogue) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.activity(catalogue) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
      ]),
  });
}

/** GET …/counts/{id}.csv or …/sheet.pdf → the file, fetched with the token and saved. */
export function useDownloadCount(catalogue: CatalogueRef, id: string) {
  return useMutation({
    mutationFn: (file: 'csv' | 'pdf') =>
      file === 'csv'
        ? apiDownload({ url: countsUrl(catalogue, `/${encodeURIComponent(id)}.csv`) }, 'count.csv')
        : apiDownload({ url: countPath(catalogue, id, '/sheet.pdf') }, 'count-sheet.pdf'),
    onSuccess: saveDownload,
    onError: notifyError,
  });
}

/** The products of the catalogue's list pages this device has loaded. */
function cachedProducts(queryClient: QueryClient, catalogue: CatalogueRef) {
  const found = new Map<string, ProductListItem>();
  for (const [, data] of queryClient.getQueriesData<{ pages?: { products?: unknown }[] }>({
    queryKey: queryKeys.products(catalogue),
  })) {
    for (const page of data?.pages ?? []) {
      if (!Array.isArray(page.products)) continue;
      for (const product of page.products as ProductListItem[]) found.set(product.id, product);
    }
  }
  return [...found.values()];
}

/**
 * GET …/products?q= → the first products whose name or codes match what was typed. Without a
 * connection, the list's products loaded on this device: counting goes on offline.
 */
export async function findProducts(queryClient: QueryClient, catalogue: CatalogueRef, q: string) {
  try {
    return await searchProducts(catalogue, q);
  } catch (error) {
    if (getErrorStatus(error) !== undefined || !isUnreachable(error)) throw error;
    const wanted = q.toLowerCase();
    return cachedProducts(queryClient, catalogue)
      .filter((product) =>
        [product.name, product.sku ?? '', product.barcode ?? ''].some((text) =>
          text.toLowerCase().includes(wanted),
        ),
      )
      .slice(0, SEARCH_RESULTS);
  }
}
