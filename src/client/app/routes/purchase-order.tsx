import { purchaseOrderQueryOptions } from '@/features/purchasing/api/purchase-orders.js';
import { locationsQueryOptions } from '@/lib/locations/locations-query.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/purchase-order.js';

/** The order with its lines, and the locations it may be received into, read first. */
export const clientLoader = ({ request, params }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () =>
    Promise.all([
      queryClient.query(cachedOrRead(purchaseOrderQueryOptions(params.catalogueId, params.poId))),
      queryClient.query(cachedOrRead(locationsQueryOptions(params.catalogueId))),
    ]),
  );

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('@/features/purchasing/components/PurchaseOrderScreen.js'),
  'PurchaseOrderScreen',
);
