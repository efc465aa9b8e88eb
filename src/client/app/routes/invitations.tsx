import { invitationsQueryOptions } from '@/features/catalogues/api/get-invitations.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/invitations.js';

/** The invitations waiting for the user, read before the screen renders. */
export const clientLoader = ({ request }: Route.ClientLoaderArgs) =>
  loadScreenData(request, () => queryClient.query(cachedOrRead(invitationsQueryOptions)));

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('@/features/catalogues/components/InvitationsScreen.js'),
  'InvitationsScreen',
);
