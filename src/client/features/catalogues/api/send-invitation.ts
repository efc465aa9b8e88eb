import { useQueryClient } from '@tanstack/react-query';
import type { AssignableRole } from '@shared/catalogue-roles.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';
import { invitationMessageSchema } from './schemas.js';

interface NewInvitation {
  catalogueId: string;
  email: string;
  role: AssignableRole;
}

/** POST /catalogues/{catalogueId}/invitations {email, role} → 201 {message, invitation}. */
const sendInvitation = ({ catalogueId, email, role }: NewInvitation) =>
  apiRequest(invitationMessageSchema, {
    method: 'POST',
    url: `/catalogues/${encodeURIComponent(catalogueId)}/invitations`,
    data: { email, role },
  });

/** The pending invitations are read again; then the screen's onSuccess. */
export function useSendInvitation({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof sendInvitation> } = {}) {
  const queryClient = useQueryClient();
  return useMutationHook(sendInvitation, mutationConfig, (_, { catalogueId }) =>
    queryClient.invalidateQueries({ queryKey: queryKeys.sentInvitations(catalogueId) }),
  );
}
