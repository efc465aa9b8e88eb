import { purchaseOrdersQueryOptions } from '@/features/purchasing/api/purchase-orders.js';
import { suppliersQueryOptions } from '@/features/purchasing/api/suppliers.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/purchase-orders.js';

/** The catalogue's purchase orders and its suppliers (a new order names one), read first. */
export const clientLoader = ({ request, params }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () =>
    Promise.all([
      queryClient.query(cachedOrRead(purchaseOrdersQueryOptions(params.catalogueId))),
      queryClient.query(cachedOrRead(suppliersQueryOptions(params.catalogueId))),
    ]),
  );

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('@/features/purchasing/components/PurchaseOrdersScreen.js'),
  'PurchaseOrdersScreen',
);
