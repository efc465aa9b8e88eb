import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { Toaster } from '@/components/Toaster.js';
import { useUser } from '@/lib/auth/get-user.js';
import { paths } from '@/lib/paths.js';
import { Footer } from '@/app/components/Footer.js';
import { Header } from '@/app/components/Header.js';
import { ScreenSuspense } from '@/app/components/ScreenSuspense.js';
import { SkipLink } from '@/app/components/SkipLink.js';

/**
 * The protected layout (everything under '/'): loads the current user first, with a spinner; if
 * that fails (signed out, or the session ended: a 401 from any request resets the user, see
 * lib/auth/session.ts), straight (replace) to /auth/login, with the way back in `next`.
 */
export function MainLayout() {
  const user = useUser();
  const { pathname, search } = useLocation();
  if (user.isPending) {
    return (
      <main className="grid min-h-full place-items-center bg-gray-100">
        <PageSpinner label="Loading your account..." />
      </main>
    );
  }
  if (user.isError)
    return <Navigate to={paths.auth.login.getHref(`${pathname}${search}`)} replace />;

  return (
    <div className="flex min-h-full flex-col bg-gray-100">
      {/* Header and main fill at least the screen, so that the footer starts below the fold: when
          a spinner gives way to a long grid, the footer is not pushed off screen (a layout shift,
          measured by e2e/screens.spec.ts). */}
      <div className="flex min-h-svh flex-col">
        <SkipLink />
        <Header user={user.data} />
        <main
          id="main"
          tabIndex={-1}
          className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 focus:outline-none sm:px-6 lg:px-8 lg:py-10"
        >
          <ScreenSuspense>
            <Outlet />
          </ScreenSuspense>
        </main>
      </div>
      <Footer />
      <Toaster />
    </div>
  );
}
