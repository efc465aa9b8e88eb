import { useQueryClient } from '@tanstack/react-query';
import type { AssignableRole } from '@shared/catalogue-roles.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';
import { memberMessageSchema } from './schemas.js';

interface RoleChange {
  catalogueId: string;
  userId: string;
  role: AssignableRole;
}

/** PATCH /catalogues/{catalogueId}/members/{userId} {role} → {message, member}. */
const changeMemberRole = ({ catalogueId, userId, role }: RoleChange) =>
  apiRequest(memberMessageSchema, {
    method: 'PATCH',
    url: `/catalogues/${encodeURIComponent(catalogueId)}/members/${encodeURIComponent(userId)}`,
    data: { role },
  });

/** The members are read again; then the screen's onSuccess. */
export function useChangeMemberRole({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof changeMemberRole> } = {}) {
  const queryClient = useQueryClient();
  return useMutationHook(changeMemberRole, mutationConfig, (_, { catalogueId }) =>
    queryClient.invalidateQueries({ queryKey: queryKeys.members(catalogueId) }),
  );
}
