import { Suspense, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';

/**
 * The Suspense boundary around a layout's screen, one per path. Under Preact (ADR 010) a boundary
 * still waiting for a screen's chunk when the user moves on (Edit, then Back at once) could lose
 * the next screen's DOM once that chunk arrived: an empty page. A boundary keyed by the path is
 * dropped together with the screen it was waiting for.
 */
export function ScreenSuspense({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <Suspense key={pathname} fallback={<PageSpinner />}>
      {children}
    </Suspense>
  );
}
