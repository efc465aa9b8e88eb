import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LocationCreate, LocationUpdate } from '@shared/schemas/locations/locations.js';
import { apiRequest } from '@/lib/api-client.js';
import { apiDownload } from '@/lib/api-download.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { locationsKey, locationsUrl } from '@/lib/locations/locations-query.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { notifySuccess } from '@/lib/notify.js';
import type { LabelLayout } from '@shared/labels.js';

/**
 * The locations' answers' shapes, loaded beside their requests (lib/api-client.ts): the shared
 * zod schemas stay out of the screens' own code.
 */
const load = () => import('@shared/schemas/locations/locations.js');
const savedSchema = () => load().then((m) => m.locationSavedSchema);

export { locationsQueryOptions, useLocations } from '@/lib/locations/locations-query.js';

type Change =
  | { kind: 'create'; body: LocationCreate }
  | { kind: 'update'; id: string; body: LocationUpdate }
  | { kind: 'delete'; id: string };

/**
 * POST, PATCH or DELETE of a location → {message, location?}: the message is shown and the tree
 * read again.
 */
export function useLocationChange(catalogue: CatalogueRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Change) => {
      switch (change.kind) {
        case 'create':
          return apiRequest(savedSchema, {
            method: 'POST',
            url: locationsUrl(catalogue),
            data: change.body,
          });
        case 'update':
          return apiRequest(savedSchema, {
            method: 'PATCH',
            url: locationsUrl(catalogue, `/${encodeURIComponent(change.id)}`),
            data: change.body,
          });
        case 'delete':
          return apiRequest(messageResponse, {
            method: 'DELETE',
            url: locationsUrl(catalogue, `/${encodeURIComponent(change.id)}`),
          });
      }
    },
    onSuccess: ({ message }) => notifySuccess(message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: locationsKey(catalogue) }),
  });
}

/** POST …/locations/labels.pdf {ids, layout} → the labels as a PDF (fetched with the token). */
export const downloadLocationLabels = (
  catalogue: CatalogueRef,
  ids: string[],
  layout: LabelLayout,
) =>
  apiDownload(
    {
      url: locationsUrl(catalogue, '/labels.pdf'),
      method: 'POST',
      data: { ids, layout, copies: 1, skip: 0 },
    },
    `location-labels-${layout}.pdf`,
  );
