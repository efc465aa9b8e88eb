import { PrefetchPageLinks } from 'react-router';
import { LiveUpdates } from '@/features/live/components/LiveUpdates.js';
import { StockQueueRunner } from '@/features/offline-queue/components/StockQueueRunner.js';
import { useUser } from '@/lib/auth/get-user.js';
import { paths } from '@/lib/paths.js';
import { WithPersistedQueries } from '../components/WithPersistedQueries.js';
import { MainLayout } from '../layouts/MainLayout.js';

/**
 * The profile screens, whose route modules are a kilobyte each, fetched ahead so that one opened
 * offline before the service worker has kept the app is explained by the app (its code loads on
 * demand, app/components/lazy-screen.ts) instead of the browser's error page. Creating and
 * importing products need the connection anyway, and a product's page would cost the list's first
 * visit more than its JavaScript budget allows; once the service worker is installed it holds
 * every screen's code.
 */
const PREFETCHED = [paths.profile.edit.getHref(), paths.profile.changePassword.getHref()];

/** React Router's framework runs the page (not the component tests' memory router). */
const inFramework = () => typeof window !== 'undefined' && '__reactRouterManifest' in window;

/**
 * The signed-in layout, and once the user is known, the route modules of the screens it leads
 * to, fetched ahead: they are small, and a screen then opened offline is explained by the app
 * (its code loads on demand, app/components/lazy-screen.ts) instead of the browser's error page.
 */
function SignedInLayout() {
  const user = useUser();
  return (
    <>
      <MainLayout />
      {/* The user's waiting stock changes go out, and changes made elsewhere come in. */}
      {user.data && <StockQueueRunner userId={user.data.id} />}
      {user.data && <LiveUpdates userId={user.data.id} />}
      {user.data &&
        inFramework() &&
        PREFETCHED.map((page) => <PrefetchPageLinks key={page} page={page} />)}
    </>
  );
}

export default function MainLayoutRoute() {
  return (
    <WithPersistedQueries>
      <SignedInLayout />
    </WithPersistedQueries>
  );
}
