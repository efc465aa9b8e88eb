import { deadStockQueryOptions } from '@/features/reports/api/get-dead-stock.js';
import { stockOverTimeQueryOptions } from '@/features/reports/api/get-stock-over-time.js';
import { toReorderQueryOptions } from '@/features/reports/api/get-to-reorder.js';
import { topMoversQueryOptions } from '@/features/reports/api/get-top-movers.js';
import { FIRST_REPORT_PERIOD } from '@/features/reports/api/reports-url.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/reports.js';

/** The four reports of the first period, read before the screen renders. */
export function clientLoader({ request, params: { catalogueId } }: Route.ClientLoaderArgs) {
  return loadScreenData(request, () =>
    Promise.all([
      queryClient.query(cachedOrRead(stockOverTimeQueryOptions(catalogueId, FIRST_REPORT_PERIOD))),
      queryClient.query(cachedOrRead(topMoversQueryOptions(catalogueId, FIRST_REPORT_PERIOD))),
      queryClient.query(cachedOrRead(deadStockQueryOptions(catalogueId))),
      queryClient.query(cachedOrRead(toReorderQueryOptions(catalogueId))),
    ]),
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('@/features/reports/components/ReportsScreen.js'),
  'ReportsScreen',
);
