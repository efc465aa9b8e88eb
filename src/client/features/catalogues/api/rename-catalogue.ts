import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';
import { catalogueMessageSchema } from './schemas.js';

/** PATCH /catalogues/{catalogueId} {name} → {message, catalogue}. */
const renameCatalogue = ({ catalogueId, name }: { catalogueId: string; name: string }) =>
  apiRequest(catalogueMessageSchema, {
    method: 'PATCH',
    url: `/catalogues/${encodeURIComponent(catalogueId)}`,
    data: { name },
  });

/** The new name shows wherever the catalogue is listed; then the screen's onSuccess. */
export function useRenameCatalogue({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof renameCatalogue> } = {}) {
  const queryClient = useQueryClient();
  return useMutationHook(renameCatalogue, mutationConfig, () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.catalogues, exact: true }),
  );
}
