import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { reportKey, reportsUrl } from './reports-url.js';
import { toReorderSchema } from './schemas.js';

/** GET …/reports/to-reorder → {products}: at or below their reorder point, and how many to order. */
export const toReorderQueryOptions = (catalogue: CatalogueRef) =>
  queryOptions({
    queryKey: reportKey(catalogue, 'to-reorder'),
    queryFn: ({ signal }) =>
      apiRequest(toReorderSchema, { url: reportsUrl(catalogue, 'to-reorder'), signal }),
  });

export const useToReorder = () => useQuery(toReorderQueryOptions(useCatalogueRef()));
