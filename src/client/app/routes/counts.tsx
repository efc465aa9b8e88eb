import { countsQueryOptions } from '@/lib/counts/counts-query.js';
import { locationsQueryOptions } from '@/lib/locations/locations-query.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/counts.js';

/** The catalogue's counts, and its locations (a new count's scope), read before the screen. */
export const clientLoader = ({ request, params }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () =>
    Promise.all([
      queryClient.query(cachedOrRead(countsQueryOptions(params.catalogueId))),
      queryClient.query(cachedOrRead(locationsQueryOptions(params.catalogueId))),
    ]),
  );

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('@/features/counts/components/CountsScreen.js'),
  'CountsScreen',
);
