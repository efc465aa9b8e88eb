import { useQueryClient } from '@tanstack/react-query';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';

/**
 * A mutation of the signed-in user's account: the cached 'user' is refreshed (the header greets
 * the new name, the profile shows the new address), then the screen's onSuccess runs.
 */
export function useUserMutation<Request extends (variables: never) => Promise<unknown>>(
  request: Request,
  mutationConfig?: MutationConfig<Request>,
) {
  const queryClient = useQueryClient();
  return useMutationHook(request, mutationConfig, () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.user }),
  );
}
