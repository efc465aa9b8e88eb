import { membersQueryOptions } from '@/features/catalogues/api/get-members.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/catalogue-settings.js';

/** The catalogue's members, read before the screen renders. */
export const clientLoader = ({ request, params }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () =>
    queryClient.query(cachedOrRead(membersQueryOptions(params.catalogueId))),
  );

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('../screens/catalogue-settings-screen.js'),
  'CatalogueSettingsScreen',
);
