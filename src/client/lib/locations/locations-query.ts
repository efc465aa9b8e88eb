import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { catalogueKey, type CatalogueRef } from '@/lib/catalogue-ref.js';

/** A catalogue's locations: `/locations…`, or `/catalogues/{id}/locations…` for a shared one. */
export const locationsUrl = (catalogue: CatalogueRef, rest = '') =>
  `${catalogue ? `/catalogues/${encodeURIComponent(catalogue)}` : ''}/locations${rest}`;

/** Where a catalogue's locations are cached (the stock module reads their paths from here). */
export const locationsKey = (catalogue: CatalogueRef) =>
  ['locations', catalogueKey(catalogue)] as const;

/**
 * GET …/locations → {locations}: the whole tree, in order, each parent before its children. Its
 * shape is loaded beside the request: the zod schemas stay out of the screens' own code.
 */
export const locationsQueryOptions = (catalogue: CatalogueRef) =>
  queryOptions({
    queryKey: locationsKey(catalogue),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(
          () =>
            import('@shared/schemas/locations/locations.js').then((m) => m.locationsResponseSchema),
          { url: locationsUrl(catalogue), signal },
        )
      ).locations,
  });

export const useLocations = (catalogue: CatalogueRef) => useQuery(locationsQueryOptions(catalogue));
