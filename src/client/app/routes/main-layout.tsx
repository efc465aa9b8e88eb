import { PrefetchPageLinks } from 'react-router';
import { LiveUpdates } from '@/features/live/components/LiveUpdates.js';
import { StockQueueRunner } from '@/features/offline-queue/components/StockQueueRunner.js';
import { useUser } from '@/lib/auth/get-user.js';
import { useOnline } from '@/lib/online.js';
import { paths } from '@/lib/paths.js';
import { useTimeForLater } from '@/lib/use-time-for-later.js';
import { WithPersistedQueries } from '../components/WithPersistedQueries.js';
import { MainLayout } from '../layouts/MainLayout.js';

/**
 * The profile and catalogue screens, whose route modules are a kilobyte each, fetched ahead so
 * that one opened offline before the service worker has kept the app is explained by the app (its
 * code loads on demand, app/components/lazy-screen.ts) instead of the browser's error page. They
 * are fetched once the first screen has settled and the user acts on it (or a little later),
 * outside its JavaScript budget however slow the machine. Creating and importing products need
 * the connection anyway; once the service worker is installed it holds every screen's code.
 */
const PREFETCHED = [
  paths.profile.edit.getHref(),
  paths.profile.changePassword.getHref(),
  paths.catalogues.getHref(),
  paths.invitations.getHref(),
];

/** React Router's framework runs the page (not the component tests' memory router). */
const inFramework = () => typeof window !== 'undefined' && '__reactRouterManifest' in window;

/**
 * The signed-in layout, and once the user is known, the route modules of the screens it leads
 * to, fetched ahead: they are small, and a screen then opened offline is explained by the app
 * (its code loads on demand, app/components/lazy-screen.ts) instead of the browser's error page.
 */
function SignedInLayout() {
  const user = useUser();
  const later = useTimeForLater();
  // Prefetching loads the route modules, and React Router reloads the page when one cannot be
  // loaded: offline, that would swap the screen for the browser's error page.
  const online = useOnline();
  return (
    <>
      <MainLayout />
      {/* The user's waiting stock changes go out, and changes made elsewhere come in. */}
      {user.data && <StockQueueRunner userId={user.data.id} />}
      {user.data && <LiveUpdates userId={user.data.id} />}
      {user.data &&
        later &&
        online &&
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
