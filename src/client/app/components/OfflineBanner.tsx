import { useOnline } from '@/lib/online.js';

/**
 * While the browser has no connection, a bar at the bottom says so (a polite status: a screen
 * reader hears it once). Fixed, so that it moves nothing on the page when it comes and goes.
 */
export function OfflineBanner() {
  const online = useOnline();
  return (
    <div
      role="status"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4"
    >
      {!online && (
        <p className="rounded-lg bg-gray-900 px-4 py-3 text-sm font-medium text-white shadow-lg ring-1 ring-white/20">
          You are offline. Changes cannot be saved until the connection is back.
        </p>
      )}
    </div>
  );
}
