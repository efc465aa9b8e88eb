import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '@/lib/query/query-client.js';

/**
 * The app's query client, for the screens that read or write through TanStack Query. Not in the
 * root: the login page does without it, and its first visit stays within its budget.
 */
export function WithQueries({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
