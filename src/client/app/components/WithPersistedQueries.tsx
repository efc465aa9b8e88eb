import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import type { ReactNode } from 'react';
import { queryClient } from '@/lib/query-client.js';
import { persistOptions } from '@/lib/query-persistence.js';

/**
 * What was restored comes from an earlier page, however recently it was read, and may have changed
 * since (an edit, another device): it is shown at once and read again (offline, once the
 * connection is back).
 */
const readRestoredAgain = () =>
  queryClient.invalidateQueries({ refetchType: navigator.onLine ? 'active' : 'none' });

/**
 * The signed-in screens' query client, with what the user saw saved in IndexedDB and restored at
 * start (lib/query-persistence.ts): the data sets stay readable offline. Queries wait for the
 * restore before they fetch.
 */
export function WithPersistedQueries({ children }: { children: ReactNode }) {
  return (
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={persistOptions}
      onSuccess={readRestoredAgain}
    >
      {children}
    </PersistQueryClientProvider>
  );
}
