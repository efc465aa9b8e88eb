import { useQueryClient } from '@tanstack/react-query';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';
import { webhooksKey } from './schemas.js';

/**
 * A change to one of a catalogue's webhook endpoints (added, switched, tested, deleted): the
 * catalogue's endpoints are read again, with their last delivery; then the screen's onSuccess.
 */
export function useWebhookMutation<Body extends { catalogueId: string }, Answer>(
  request: (body: Body) => Promise<Answer>,
  mutationConfig?: MutationConfig<typeof request>,
) {
  const queryClient = useQueryClient();
  return useMutationHook(request, mutationConfig, (_, { catalogueId }) =>
    queryClient.invalidateQueries({ queryKey: webhooksKey(catalogueId) }),
  );
}
