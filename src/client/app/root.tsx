import '@/lib/zod-without-eval.js';
import { useEffect, type ReactNode } from 'react';
import { Links, Meta, Outlet, Scripts, useRouteError } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { endSessionLater, followSessionOfOtherTabs } from '@/lib/auth/lazy-session.js';
import { notifyNewVersion } from '@/lib/notify.js';
import { registerServiceWorker } from '@/lib/service-worker.js';
import { setUnauthorizedHandler } from '@/lib/unauthorized.js';
import { ErrorBoundary as ScreenErrorBoundary } from './components/ErrorBoundary.js';
import { OfflineBanner } from './components/OfflineBanner.js';
import { RouteError } from './components/RouteError.js';
import { SignedInFrame } from './components/SignedInFrame.js';
import { ScreenChange } from './components/ScreenChange.js';
import stylesheet from '../index.css?inline';

// In development the stylesheet is Vite's, which updates in place as it is edited.
if (import.meta.env.DEV && !import.meta.env.SSR) void import('../index.css');

/**
 * The app's stylesheet, inline in every page the build writes: the first paint waits for no other
 * file (on a slow connection it would share the bandwidth with every script the page preloads).
 * The screens the app then shows keep it. Only the build's rendering carries it: the browser's
 * code hydrates the element as it is (React leaves inner HTML as the page has it), so the
 * stylesheet is not in the JavaScript as well.
 */
const INLINE_STYLESHEET = import.meta.env.SSR ? stylesheet : '';

const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%236366f1'/%3E%3Cpath d='M8 12.5 16 8l8 4.5v9L16 26l-8-4.5v-9ZM8 12.5 16 17l8-4.5M16 17v9' fill='none' stroke='white' stroke-width='2' stroke-linejoin='round'/%3E%3C/svg%3E";

/** The document every screen is rendered into, at build time and in the browser alike. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" className="h-full bg-gray-100">
      <head>
        <meta charSet="UTF-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1.0" />
        <meta name="description" content="Stockroom: keep track of your product inventory." />
        <meta name="theme-color" content="#111827" />
        <link rel="icon" href={FAVICON} />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon-180.png" />
        <style dangerouslySetInnerHTML={{ __html: INLINE_STYLESHEET }} suppressHydrationWarning />
        <Meta />
        <Links />
      </head>
      <body className="h-full antialiased">
        <div id="root" className="h-full">
          {children}
        </div>
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  // A token the server stopped accepting (expired, revoked) signs this browser out.
  useEffect(() => {
    setUnauthorizedHandler(() => void endSessionLater());
    return () => setUnauthorizedHandler(undefined);
  }, []);

  // Another tab's logout or login: this one follows, holding nothing of the session before.
  useEffect(() => followSessionOfOtherTabs(), []);

  // The installed app's worker, once the page has loaded; a new version waits for a Reload.
  useEffect(() => registerServiceWorker(notifyNewVersion), []);

  return (
    <>
      <ScreenErrorBoundary>
        <Outlet />
      </ScreenErrorBoundary>
      <ScreenChange />
      <OfflineBanner />
    </>
  );
}

/** A screen whose code could not be loaded, or that failed while the router prepared it. */
export function ErrorBoundary() {
  return <RouteError error={useRouteError()} />;
}

/**
 * The page of every path the build does not prerender (a product, its edit form, the profile...),
 * shown until the app's code has loaded: the signed-in frame, since most of those screens are in it.
 */
export function HydrateFallback() {
  return (
    <SignedInFrame>
      <title>Stockroom</title>
      <PageSpinner />
    </SignedInFrame>
  );
}
