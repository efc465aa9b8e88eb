import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';

/**
 * A mutation of the signed-in user's account: the cached 'user' is refreshed (the header greets
 * the new name, the profile shows the new address), then the screen's onSuccess runs.
 */
export function useUserMutation<Request extends (variables: never) => Promise<unknown>>(
  request: Request,
  mutationConfig?: MutationConfig<Request>,
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  // The request's own types, which TypeScript cannot relate to React Query's on its own.
  const mutationFn = request as unknown as (
    variables: Parameters<Request>[0],
  ) => Promise<Awaited<ReturnType<Request>>>;
  return useMutation({
    ...config,
    mutationFn,
    onSuccess: async (data, variables, ...rest) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.user });
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
