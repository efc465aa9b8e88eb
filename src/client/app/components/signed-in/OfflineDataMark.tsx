import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { formatShortTime } from '@/lib/format.js';
import { useOnline } from '@/lib/online.js';

/**
 * When the oldest data set on screen was loaded: the data sets some screen shows (they have an
 * observer) and that hold data, restored from an earlier visit or loaded in this one.
 */
function loadedAtOf(queryClient: QueryClient): number | undefined {
  let oldest: number | undefined;
  for (const query of queryClient.getQueryCache().getAll()) {
    const { data, dataUpdatedAt } = query.state;
    if (data === undefined || dataUpdatedAt === 0 || query.getObserversCount() === 0) continue;
    oldest = oldest === undefined ? dataUpdatedAt : Math.min(oldest, dataUpdatedAt);
  }
  return oldest;
}

/**
 * While offline, above a screen that shows what was loaded earlier: when that was, so that a stock
 * count read from the saved cache is not taken for the current one.
 */
export function OfflineDataMark() {
  const online = useOnline();
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(onChange),
    [queryClient],
  );
  const loadedAt = useSyncExternalStore(
    subscribe,
    () => loadedAtOf(queryClient),
    () => undefined,
  );
  if (online || loadedAt === undefined) return null;
  return (
    <p
      role="status"
      className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-amber-600/20"
    >
      Offline: showing what was loaded at {formatShortTime(loadedAt)}
    </p>
  );
}
