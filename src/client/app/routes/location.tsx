import { locationsQueryOptions } from '@/features/locations/api/locations.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/location.js';

/** The catalogue's locations (a location's page shows its place in the tree), read first. */
export const clientLoader = ({ request, params }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () =>
    queryClient.query(cachedOrRead(locationsQueryOptions(params.catalogueId))),
  );

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

const LocationScreen = lazyScreen(
  () => import('@/features/locations/components/LocationScreen.js'),
  'LocationScreen',
);

/** What the location holds, and moving it: the products' part of the page. */
const LocationHoldings = lazyScreen(
  () => import('@/features/products/components/LocationHoldings.js'),
  'LocationHoldings',
);

export default function LocationRoute() {
  return (
    <>
      <LocationScreen />
      <LocationHoldings />
    </>
  );
}
