import { Suspense, useEffect } from 'react';
import { Outlet, useRevalidator } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { useUser } from '@/lib/session/get-user.js';
import { CurrentCatalogueProvider } from '@/lib/catalogues/current-catalogue.js';
import { OfflineDataMark } from '@/app/components/signed-in/OfflineDataMark.js';
import { SignedInFrame } from '@/app/components/SignedInFrame.js';
import { UserMenu } from '@/app/components/signed-in/UserMenu.js';
import { CatalogueSwitcher } from '@/features/catalogues/components/header/CatalogueSwitcher.js';
import { InvitationsLink } from '@/features/catalogues/components/header/InvitationsLink.js';

/**
 * The protected layout, once its loader has the current user (routes/main-layout.tsx): the frame,
 * the user menu and the screen. A session that ends while a screen shows (a 401 from any request
 * resets the user, see lib/session/session.ts) runs the loader again, which sends the user to
 * /auth/login with the way back: to where they were, or to where they were going.
 */
export function MainLayout() {
  const user = useUser();
  const revalidator = useRevalidator();
  const ended = user.isError;
  useEffect(() => {
    if (ended) void revalidator.revalidate();
    // The revalidator changes with every navigation; only the session's end asks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ended]);
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
      {user.data && <OfflineDataMark />}
      <CurrentCatalogueProvider>
        {user.data ? (
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        ) : (
          <PageSpinner label="Loading your account..." />
        )}
      </CurrentCatalogueProvider>
    </SignedInFrame>
  );
}
