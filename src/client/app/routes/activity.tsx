import { activityFiltersOf, activityQueryOptions } from '@/features/activity/api/get-activity.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/activity.js';

/** The log's first page with the URL's filters, read before the screen renders. */
export function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  const filters = activityFiltersOf(new URL(request.url).searchParams);
  return loadScreenData(request, () =>
    queryClient.infiniteQuery(cachedOrRead(activityQueryOptions(params.catalogueId, filters))),
  );
}

export { onlyWhenEntered as shouldRevalidate } from '../layouts/signed-in/route-data.js';

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

/** The activity log's code loads only here, never with the list. */
export default lazyScreen(
  () => import('@/features/activity/components/ActivityScreen.js'),
  'ActivityScreen',
);
