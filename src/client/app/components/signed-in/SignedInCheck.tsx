import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { userQueryOptions } from '@/lib/session/get-user.js';
import { safeNextPath } from '@/lib/next-path.js';
import { WithQueries } from './WithQueries.js';

function Check({ children }: { children: ReactNode }) {
  const user = useQuery(userQueryOptions);
  const [params] = useSearchParams();
  if (user.isPending) return <PageSpinner label="Loading your account..." />;
  if (user.isSuccess) return <Navigate to={safeNextPath(params.get('next'))} replace />;
  return children;
}

/** A stored token's user, asked for: signed in, the screen goes on to the app. */
export default function SignedInCheck({ children }: { children: ReactNode }) {
  return (
    <WithQueries>
      <Check>{children}</Check>
    </WithQueries>
  );
}
