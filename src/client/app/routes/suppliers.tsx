import { suppliersQueryOptions } from '@/features/purchasing/api/suppliers.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/suppliers.js';

/** The catalogue's suppliers, read before the screen renders. */
export const clientLoader = ({ request, params }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () =>
    queryClient.query(cachedOrRead(suppliersQueryOptions(params.catalogueId))),
  );

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('@/features/purchasing/components/SuppliersScreen.js'),
  'SuppliersScreen',
);
