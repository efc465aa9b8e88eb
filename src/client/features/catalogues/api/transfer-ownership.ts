import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';
import { catalogueMessageSchema } from './schemas.js';

/** POST /catalogues/{catalogueId}/transfer {userId} → {message, catalogue}: to an admin. */
const transferOwnership = ({ catalogueId, userId }: { catalogueId: string; userId: string }) =>
  apiRequest(catalogueMessageSchema, {
    method: 'POST',
    url: `/catalogues/${encodeURIComponent(catalogueId)}/transfer`,
    data: { userId },
  });

/** Both roles changed: the catalogues and the members are read again; then the screen's. */
export function useTransferOwnership({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof transferOwnership> } = {}) {
  const queryClient = useQueryClient();
  return useMutationHook(transferOwnership, mutationConfig, (_, { catalogueId }) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.catalogues, exact: true }),
      queryClient.invalidateQueries({ queryKey: queryKeys.members(catalogueId) }),
    ]),
  );
}
