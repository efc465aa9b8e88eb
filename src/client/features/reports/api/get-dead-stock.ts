import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { reportKey, reportsUrl } from './reports-url.js';
import { deadStockSchema } from './schemas.js';

/** GET …/reports/dead-stock → {products}: stock that has not moved in 90 days. */
export const deadStockQueryOptions = (catalogue: CatalogueRef) =>
  queryOptions({
    queryKey: reportKey(catalogue, 'dead-stock'),
    queryFn: ({ signal }) =>
      apiRequest(deadStockSchema, { url: reportsUrl(catalogue, 'dead-stock'), signal }),
  });

export const useDeadStock = () => useQuery(deadStockQueryOptions(useCatalogueRef()));
