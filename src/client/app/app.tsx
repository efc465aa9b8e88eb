import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { endSession } from '@/lib/auth/session.js';
import { queryClient } from '@/lib/query-client.js';
import { setUnauthorizedHandler } from '@/lib/unauthorized.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { OfflineBanner } from './components/OfflineBanner.js';
import { ScreenChange } from './components/ScreenChange.js';
import { AppRoutes } from './router.js';

export function App() {
  // A token the server stopped accepting (expired, revoked) signs this browser out.
  useEffect(() => {
    setUnauthorizedHandler(() => endSession(queryClient));
    return () => setUnauthorizedHandler(undefined);
  }, []);

  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <ErrorBoundary>
          <AppRoutes />
        </ErrorBoundary>
        <ScreenChange />
        <OfflineBanner />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
