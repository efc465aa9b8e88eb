import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';
import { catalogueMessageSchema } from './schemas.js';

/** POST /invitations/{invitationId}/accept → {message, catalogue}: the user joined it. */
const acceptInvitation = (invitationId: string) =>
  apiRequest(catalogueMessageSchema, {
    method: 'POST',
    url: `/invitations/${encodeURIComponent(invitationId)}/accept`,
  });

/** The invitations and the catalogues are read again; then the screen's onSuccess. */
export function useAcceptInvitation({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof acceptInvitation> } = {}) {
  const queryClient = useQueryClient();
  return useMutationHook(acceptInvitation, mutationConfig, () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.invitations }),
      queryClient.invalidateQueries({ queryKey: queryKeys.catalogues, exact: true }),
    ]),
  );
}
