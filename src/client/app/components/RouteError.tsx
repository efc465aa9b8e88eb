import { useEffect } from 'react';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { isChunkLoadError } from '@/lib/lazy-import.js';

interface RouteErrorProps {
  error: unknown;
  /** Shows the screen again: called when the connection comes back to a screen not loaded. */
  onRetry?: (() => void) | undefined;
  /** Shown in the signed-in frame, whose <main> it fills, rather than as the whole page. */
  inFrame?: boolean;
}

/** What a route shows when it cannot load (offline, a new release replaced its code, a crash). */
export function RouteError({ error, onRetry, inFrame = false }: RouteErrorProps) {
  const notLoaded = isChunkLoadError(error);

  // Its code could not be fetched: once the browser is online again, it is asked for again.
  useEffect(() => {
    if (!notLoaded || !onRetry) return;
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [notLoaded, onRetry]);

  const Box = inFrame ? 'div' : 'main';
  return (
    <Box
      className={inFrame ? 'py-16' : 'grid min-h-full place-items-center bg-gray-100 px-6 py-24'}
    >
      <div role="alert" className="text-center">
        <h1 className="text-3xl font-bold tracking-tight text-gray-900">
          {notLoaded ? 'This screen could not be loaded' : 'Something went wrong'}
        </h1>
        <p className="mt-4 text-gray-600">
          {notLoaded
            ? 'Check your connection, then reload the page.'
            : 'This screen could not be shown. Reloading usually fixes it.'}
        </p>
        <button
          type="button"
          className={buttonClasses('primary', 'mt-8')}
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
      </div>
    </Box>
  );
}
