import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';

interface Removal {
  catalogueId: string;
  userId: string;
}

/**
 * DELETE /catalogues/{catalogueId}/members/{userId} → {message}: an admin removing a member, or
 * the user leaving (their own id).
 */
const removeMember = ({ catalogueId, userId }: Removal) =>
  apiRequest(messageResponse, {
    method: 'DELETE',
    url: `/catalogues/${encodeURIComponent(catalogueId)}/members/${encodeURIComponent(userId)}`,
  });

/** The members and catalogues are read again; then the screen's onSuccess. */
export function useRemoveMember({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof removeMember> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: removeMember,
    onSuccess: async (data, variables, ...rest) => {
      await onSuccess?.(data, variables, ...rest);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.members(variables.catalogueId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.catalogues, exact: true }),
      ]);
    },
  });
}
