import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';

/** DELETE /catalogues/{catalogueId}/invitations/{invitationId} → {message}. */
const revokeInvitation = ({
  catalogueId,
  invitationId,
}: {
  catalogueId: string;
  invitationId: string;
}) =>
  apiRequest(messageResponse, {
    method: 'DELETE',
    url: `/catalogues/${encodeURIComponent(catalogueId)}/invitations/${encodeURIComponent(invitationId)}`,
  });

/** The pending invitations are read again; then the screen's onSuccess. */
export function useRevokeInvitation({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof revokeInvitation> } = {}) {
  const queryClient = useQueryClient();
  return useMutationHook(revokeInvitation, mutationConfig, (_, { catalogueId }) =>
    queryClient.invalidateQueries({ queryKey: queryKeys.sentInvitations(catalogueId) }),
  );
}
