import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { userQueryOptions } from '@/lib/auth/get-user.js';
import { getToken } from '@/lib/auth/token.js';
import { safeNextPath } from '@/lib/next-path.js';
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

/**
 * The login and sign-up screens, for a browser that is not signed in. A signed-in user who opens
 * them (a bookmark, the back button) goes on to the app instead: to `next`, or the product list.
 * Decided when the screen opens, from a stored token the server still accepts; a login on this
 * screen navigates on its own.
 */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const hadToken = useHadToken();
  const user = useQuery({ ...userQueryOptions, enabled: hadToken });
  const [params] = useSearchParams();
  if (hadToken && user.isPending) return <PageSpinner label="Loading your account..." />;
  if (hadToken && user.isSuccess) return <Navigate to={safeNextPath(params.get('next'))} replace />;
  return children;
}
