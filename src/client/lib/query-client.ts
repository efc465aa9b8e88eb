import { QueryClient } from '@tanstack/react-query';

/** Each query sets its own retries (spec section 9); mutations never retry. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 10_000 },
    mutations: { retry: false },
  },
});

/** The cached data sets, by name (spec section 3). */
export const queryKeys = {
  user: ['user'] as const,
  products: ['products'] as const,
  product: (id: string) => ['editProduct', id] as const,
};
