import { locationsQueryOptions } from '@/features/locations/api/locations.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/locations.js';

/** The catalogue's locations, read before the screen renders. */
export const clientLoader = ({ request, params }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () =>
    queryClient.query(cachedOrRead(locationsQueryOptions(params.catalogueId))),
  );

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('@/features/locations/components/LocationsScreen.js'),
  'LocationsScreen',
);
