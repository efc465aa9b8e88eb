import { useOnline } from '@/lib/online.js';

/**
 * While the browser has no connection, a bar at the bottom says so, and what still works: stock
 * changes are kept to send later (lib/stock-change), other writes are refused. A polite status (a
 * screen reader hears it once), fixed, so that it moves nothing on the page when it comes and goes.
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
          You are offline. Stock changes wait here and are sent when the connection is back; other
          changes need it.
        </p>
      )}
    </div>
  );
}
