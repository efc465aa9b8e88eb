import { PrefetchPageLinks } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { LiveUpdates } from '@/features/live/components/LiveUpdates.js';
import { StockQueueRunner } from '@/features/offline-queue/components/StockQueueRunner.js';
import { useSessionChangesElsewhere } from '@/lib/auth/lazy-session.js';
import { useUser } from '@/lib/session/get-user.js';
import { CurrentCatalogueProvider } from '@/lib/catalogues/current-catalogue.js';
import { useOnline } from '@/lib/online.js';
import { paths } from '@/lib/paths.js';
import { useTimeForLater } from '@/lib/use-time-for-later.js';
import { useScreenPlaceholder } from '../components/screen-placeholder.js';
import { SignedInFrame } from '../components/SignedInFrame.js';
import { WithQueries } from '../components/signed-in/WithQueries.js';
import { MainLayout } from '../layouts/signed-in/MainLayout.js';
import { requireToken, requireUser } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/main-layout.js';

/**
 * The protected layout (everything under '/'): signed out, straight (replace) to /auth/login with
 * the way back before any loader runs, on every navigation and when a session ends while a screen
 * shows (MainLayout asks for it); then the current user before any screen renders, what an
 * earlier visit saved restored first (app/layouts/signed-in/route-data.ts).
 */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async (args, next) => {
    requireToken(args);
    await next();
  },
];

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await requireUser(request);
  return null;
}

/**
 * While the user loads: the frame with the screen's placeholder (its title and a spinner or
 * skeleton, app/components/screen-placeholder.ts), or a spinner. The build writes it into the
 * pages it prerenders, so that they do not start blank.
 */
export function HydrateFallback() {
  const placeholder = useScreenPlaceholder();
  return (
    <WithQueries>
      <SignedInFrame>
        <CurrentCatalogueProvider>
          {placeholder ?? <PageSpinner label="Loading your account..." />}
        </CurrentCatalogueProvider>
      </SignedInFrame>
    </WithQueries>
  );
}

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
  const sessionChanges = useSessionChangesElsewhere();
  const later = useTimeForLater();
  // Prefetching loads the route modules, and React Router reloads the page when one cannot be
  // loaded: offline, that would swap the screen for the browser's error page.
  const online = useOnline();
  return (
    <>
      {/* Another tab's logout or login: the screens start afresh, nothing of the session before. */}
      <MainLayout key={sessionChanges} />
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
    <WithQueries>
      <SignedInLayout />
    </WithQueries>
  );
}
