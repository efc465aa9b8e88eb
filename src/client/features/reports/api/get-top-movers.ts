import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportPeriod } from '@shared/schemas/reports.js';
import { apiRequest } from '@/lib/api-client.js';
import { useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { reportKey, reportsUrl } from './reports-url.js';
import { topMoversSchema } from './schemas.js';

/** GET …/reports/top-movers?days → {products}: the ten most moved, units in and out. */
export const topMoversQueryOptions = (catalogue: CatalogueRef, days: ReportPeriod) =>
  queryOptions({
    queryKey: reportKey(catalogue, 'top-movers', { days }),
    queryFn: ({ signal }) =>
      apiRequest(topMoversSchema, {
        url: reportsUrl(catalogue, 'top-movers'),
        params: { days },
        signal,
      }),
  });

export const useTopMovers = (days: ReportPeriod) =>
  useQuery({
    ...topMoversQueryOptions(useCatalogueRef(), days),
    // Another period keeps the last one on screen until its figures come.
    placeholderData: keepPreviousData,
  });
