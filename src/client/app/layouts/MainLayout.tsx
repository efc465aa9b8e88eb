import { Suspense } from 'react';
import { Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { useUser } from '@/lib/auth/get-user.js';
import { CurrentCatalogueProvider } from '@/lib/catalogues/current-catalogue.js';
import { paths } from '@/lib/paths.js';
import { useDrawn } from '@/lib/use-drawn.js';
import { OfflineDataMark } from '@/app/components/OfflineDataMark.js';
import { useScreenPlaceholder } from '@/app/components/screen-placeholder.js';
import { SignedInFrame } from '@/app/components/SignedInFrame.js';
import { UserMenu } from '@/app/components/UserMenu.js';
import { CatalogueSwitcher } from '@/features/catalogues/components/CatalogueSwitcher.js';
import { InvitationsLink } from '@/features/catalogues/components/InvitationsLink.js';

/**
 * The protected layout (everything under '/'): loads the current user first, in the frame with the
 * screen's placeholder (its title and a spinner or skeleton; app/components/screen-placeholder.ts)
 * or a spinner; if that fails (signed out, or the session ended: a 401 from any request resets
 * the user, see lib/auth/session.ts), straight (replace) to /auth/login, with the way back in
 * `next`.
 */
export function MainLayout() {
  const user = useUser();
  // The screen is first drawn as a transition once the user is known, in slices.
  const pending = !useDrawn(!user.isPending);
  // A session can end on the way to another screen (a 401 from that screen's first request): the
  // way back is where the user was going, unless that is the login screen this sends them to.
  const going = useNavigation().location;
  const here = useLocation();
  const { pathname, search } = going && going.pathname !== paths.auth.login.path ? going : here;
  const placeholder = useScreenPlaceholder();
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
      {!pending && <OfflineDataMark />}
      <CurrentCatalogueProvider>
        {pending ? (
          (placeholder ?? <PageSpinner label="Loading your account..." />)
        ) : (
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        )}
      </CurrentCatalogueProvider>
    </SignedInFrame>
  );
}
