import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { dropCatalogueCache } from '@/lib/catalogues/catalogue-cache.js';

/** DELETE /catalogues/{catalogueId} → {message}: its products, pictures and history go too. */
const deleteCatalogue = (catalogueId: string) =>
  apiRequest(messageResponse, {
    method: 'DELETE',
    url: `/catalogues/${encodeURIComponent(catalogueId)}`,
  });

/** The catalogue's cached data goes and the list is read again; then the screen's onSuccess. */
export function useDeleteCatalogue({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteCatalogue> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: deleteCatalogue,
    onSuccess: async (data, catalogueId, ...rest) => {
      await onSuccess?.(data, catalogueId, ...rest);
      dropCatalogueCache(queryClient, catalogueId);
      await queryClient.invalidateQueries({ queryKey: queryKeys.catalogues, exact: true });
    },
  });
}
