import type { ReactNode } from 'react';
import { isRouteErrorResponse, useLocation, useNavigate, useRouteError } from 'react-router';
import { retryFailedScreens } from './lazy-screen.js';
import { NotFound } from './NotFound.js';
import { RouteError } from './RouteError.js';

/**
 * A signed-in screen's error boundary, inside the frame: what its loader found missing (404) is
 * `notFound`'s to say (a page that is not there, by default), and a screen whose code could not
 * be loaded (offline) asks for it again once the connection is back, by itself; anything else
 * offers a Reload.
 */
export function ScreenError({ notFound = <NotFound /> }: { notFound?: ReactNode }) {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return notFound;
  return (
    <RouteError
      error={error}
      inFrame
      onRetry={() => {
        retryFailedScreens();
        // The same address again: the router clears a route's error when its location changes.
        void navigate(location, { replace: true, state: location.state });
      }}
    />
  );
}

/** The route modules' `ErrorBoundary` export. */
export function ScreenErrorBoundary() {
  return <ScreenError />;
}
