import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { reportKey, reportsUrl } from './reports-url.js';
import { deadStockSchema } from './schemas.js';

/** GET …/reports/dead-stock → {products}: stock that has not moved in 90 days. */
export function useDeadStock() {
  const catalogue = useCatalogueRef();
  return useQuery({
    queryKey: reportKey(catalogue, 'dead-stock'),
    queryFn: ({ signal }) =>
      apiRequest(deadStockSchema, { url: reportsUrl(catalogue, 'dead-stock'), signal }),
  });
}
