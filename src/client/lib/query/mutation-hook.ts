import { useMutation } from '@tanstack/react-query';
import type { MutationConfig } from './query-client.js';

/**
 * A feature's mutation hook: the request, then its own effects on the cache or the session
 * (`effects`, awaited), then the screen's onSuccess from `mutationConfig`.
 */
export function useMutationHook<Request extends (variables: never) => Promise<unknown>>(
  request: Request,
  mutationConfig: MutationConfig<Request> | undefined,
  effects: (data: Awaited<ReturnType<Request>>, variables: Parameters<Request>[0]) => unknown,
) {
  const { onSuccess, ...config } = mutationConfig ?? {};
  // The request's own types, which TypeScript cannot relate to React Query's on its own.
  const mutationFn = request as unknown as (
    variables: Parameters<Request>[0],
  ) => Promise<Awaited<ReturnType<Request>>>;
  return useMutation({
    ...config,
    mutationFn,
    onSuccess: async (data, variables, ...rest) => {
      await effects(data, variables);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
