import { cataloguesQueryOptions } from '@/lib/catalogues/get-catalogues.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/catalogues.js';

/** The user's catalogues, read before the screen renders. */
export const clientLoader = ({ request }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () => queryClient.query(cachedOrRead(cataloguesQueryOptions)));

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('@/features/catalogues/components/CataloguesScreen.js'),
  'CataloguesScreen',
);
