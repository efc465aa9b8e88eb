import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';

/** POST /invitations/{invitationId}/decline → {message}. */
const declineInvitation = (invitationId: string) =>
  apiRequest(messageResponse, {
    method: 'POST',
    url: `/invitations/${encodeURIComponent(invitationId)}/decline`,
  });

/** The invitations are read again; then the screen's onSuccess. */
export function useDeclineInvitation({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof declineInvitation> } = {}) {
  const queryClient = useQueryClient();
  return useMutationHook(declineInvitation, mutationConfig, () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.invitations }),
  );
}
