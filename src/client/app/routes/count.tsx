import { countQueryOptions } from '@/lib/counts/counts-query.js';
import { locationsQueryOptions } from '@/lib/locations/locations-query.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/count.js';

/** The count with its first lines, and the locations (the lines' paths), read first. */
export const clientLoader = ({ request, params }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () =>
    Promise.all([
      queryClient.infiniteQuery(
        cachedOrRead(countQueryOptions(params.catalogueId, params.countId)),
      ),
      queryClient.query(cachedOrRead(locationsQueryOptions(params.catalogueId))),
    ]),
  );

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('@/features/counts/components/CountScreen.js'),
  'CountScreen',
);
