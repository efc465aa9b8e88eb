import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { sourceHeader } from '@/lib/source-header.js';
import { activityUrl } from './activity-url.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** POST …/activity/{entryId}/undo → {entry}: the new undo entry. */
const undoActivity = (catalogue: CatalogueRef, entryId: string) =>
  apiRequest(() => import('@shared/schemas/activity.js').then((m) => m.undoResponseSchema), {
    method: 'POST',
    url: activityUrl(catalogue, `/${encodeURIComponent(entryId)}/undo`),
    // Made in the app, on the Activity screen: the log says so rather than 'API'.
    headers: sourceHeader('activity'),
  });

/** An undo changes products: the log, the list and the product's own screens read again. */
export function useUndoActivity(catalogue: CatalogueRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entryId: string) => undoActivity(catalogue, entryId),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.activity(catalogue) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.catalogueProducts(catalogue) }),
      ]),
  });
}
