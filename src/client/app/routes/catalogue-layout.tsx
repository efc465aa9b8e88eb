import { CatalogueLayout } from '@/features/catalogues/components/CatalogueLayout.js';
import { cataloguesQueryOptions } from '@/lib/catalogues/get-catalogues.js';
import { queryClient } from '@/lib/query/query-client.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/catalogue-layout.js';

/**
 * The user's catalogues, read before a shared catalogue's screens render: the layout knows at once
 * whether the catalogue is one of the user's, and with which role.
 */
export const clientLoader = ({ request }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () => queryClient.query(cachedOrRead(cataloguesQueryOptions)));

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default CatalogueLayout;
