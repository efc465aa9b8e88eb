import { lazy, Suspense, useState, type ReactNode } from 'react';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { getToken } from '@/lib/auth/token.js';
import { cachedImport } from '@/lib/lazy-import.js';
import { useHydrated } from '@/lib/use-hydrated.js';

/**
 * Whether this browser held a token when the screen opened (a token stored later, by a login
 * here, does not count). The page the build wrote knows of none, and hydrating it must render
 * what it shows: the token counts once the page is the app's.
 */
function useHadToken() {
  const [tokenAtOpen] = useState(() => getToken() !== null);
  return useHydrated() && tokenAtOpen;
}

// The user query and its client load only with a stored token: a browser without one (every first
// visit) gets the screen without TanStack Query.
const loadCheck = cachedImport(() => import('./signed-in/SignedInCheck.js'));
const SignedInCheck = lazy(loadCheck);

/**
 * The login and sign-up screens, for a browser that is not signed in. A signed-in user who opens
 * them (a bookmark, the back button) goes on to the app instead: to `next`, or the product list.
 * Decided when the screen opens, from a stored token the server still accepts; a login on this
 * screen navigates on its own.
 */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const hadToken = useHadToken();
  if (!hadToken) return children;
  return (
    <Suspense fallback={<PageSpinner label="Loading your account..." />}>
      <SignedInCheck>{children}</SignedInCheck>
    </Suspense>
  );
}
