import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportPeriod } from '@shared/schemas/reports.js';
import { apiRequest } from '@/lib/api-client.js';
import { useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { reportKey, reportsUrl } from './reports-url.js';
import { stockOverTimeSchema } from './schemas.js';

/** GET …/reports/stock-over-time?days → {days}: units and value at the end of each day. */
export const stockOverTimeQueryOptions = (catalogue: CatalogueRef, days: ReportPeriod) =>
  queryOptions({
    queryKey: reportKey(catalogue, 'stock-over-time', { days }),
    queryFn: ({ signal }) =>
      apiRequest(stockOverTimeSchema, {
        url: reportsUrl(catalogue, 'stock-over-time'),
        params: { days },
        signal,
      }),
  });

export const useStockOverTime = (days: ReportPeriod) =>
  useQuery({
    ...stockOverTimeQueryOptions(useCatalogueRef(), days),
    // Another period keeps the last one on screen until its figures come.
    placeholderData: keepPreviousData,
  });
