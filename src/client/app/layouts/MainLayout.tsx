import { Suspense, useDeferredValue } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { useUser } from '@/lib/auth/get-user.js';
import { CurrentCatalogueProvider } from '@/lib/catalogues/current-catalogue.js';
import { paths } from '@/lib/paths.js';
import { OfflineDataMark } from '@/app/components/OfflineDataMark.js';
import { SignedInFrame } from '@/app/components/SignedInFrame.js';
import { UserMenu } from '@/app/components/UserMenu.js';
import { CatalogueSwitcher } from '@/features/catalogues/components/CatalogueSwitcher.js';
import { InvitationsLink } from '@/features/catalogues/components/InvitationsLink.js';

/**
 * The protected layout (everything under '/'): loads the current user first, in the frame with a
 * spinner; if that fails (signed out, or the session ended: a 401 from any request resets the
 * user, see lib/auth/session.ts), straight (replace) to /auth/login, with the way back in `next`.
 */
export function MainLayout() {
  const user = useUser();
  // The screen is drawn as a transition once the user is known: in slices between which the page
  // still answers, rather than in one long task when the answer lands.
  const userPending = useDeferredValue(user.isPending);
  const { pathname, search } = useLocation();
  if (user.isError)
    return <Navigate to={paths.auth.login.getHref(`${pathname}${search}`)} replace />;
  return (
    <SignedInFrame
      account={user.data && <UserMenu user={user.data} />}
      catalogue={
        user.data && (
          <>
            <CatalogueSwitcher />
            <InvitationsLink />
          </>
        )
      }
    >
      {user.isPending || userPending ? (
        <PageSpinner label="Loading your account..." />
      ) : (
        <>
          <OfflineDataMark />
          <CurrentCatalogueProvider>
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          </CurrentCatalogueProvider>
        </>
      )}
    </SignedInFrame>
  );
}
