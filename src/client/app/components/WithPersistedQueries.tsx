import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import type { ReactNode } from 'react';
import { queryClient } from '@/lib/query-client.js';
import { persistOptions } from '@/lib/query-persistence.js';

/**
 * The signed-in screens' query client, with what the user saw saved in IndexedDB and restored at
 * start (lib/query-persistence.ts): the data sets stay readable offline. Queries wait for the
 * restore before they fetch.
 */
export function WithPersistedQueries({ children }: { children: ReactNode }) {
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions}>
      {children}
    </PersistQueryClientProvider>
  );
}
