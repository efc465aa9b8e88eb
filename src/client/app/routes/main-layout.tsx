import { PrefetchPageLinks } from 'react-router';
import { LiveUpdates } from '@/features/live/components/LiveUpdates.js';
import { StockQueueRunner } from '@/features/offline-queue/components/StockQueueRunner.js';
import { useUser } from '@/lib/auth/get-user.js';
import { paths } from '@/lib/paths.js';
import { WithPersistedQueries } from '../components/WithPersistedQueries.js';
import { MainLayout } from '../layouts/MainLayout.js';

/**
 * The screens the header and the list lead to without a product's id: their route modules are a
 * kilobyte each. A product's page is not among them: with its picture and history code it would
 * cost the list's first visit more than its JavaScript budget allows.
 */
const PREFETCHED = [
  paths.products.create.getHref(),
  paths.products.import.getHref(),
  paths.profile.edit.getHref(),
  paths.profile.changePassword.getHref(),
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
