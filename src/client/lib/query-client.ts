import { QueryClient } from '@tanstack/react-query';

/**
 * Each query sets its own retries (spec section 9); mutations never retry. Requests go out even
 * when the browser says it is offline ('always'; TanStack's default pauses them until it is back
 * online, which left 'Logging in...' and the list's spinner up forever): the request fails at
 * once and the screen says the server cannot be reached. Queries still refetch on reconnect.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 10_000, networkMode: 'always' },
    mutations: { retry: false, networkMode: 'always' },
  },
});

/** The cached data sets, by name (spec section 3). */
export const queryKeys = {
  user: ['user'] as const,
  products: ['products'] as const,
  product: (id: string) => ['editProduct', id] as const,
};
