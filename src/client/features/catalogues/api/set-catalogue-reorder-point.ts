import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';
import { catalogueMessageSchema } from './schemas.js';

interface ReorderPointChange {
  catalogueId: string;
  reorderPoint: number;
}

/** PATCH /catalogues/{catalogueId} {reorderPoint} → {message, catalogue}. */
const setCatalogueReorderPoint = ({ catalogueId, reorderPoint }: ReorderPointChange) =>
  apiRequest(catalogueMessageSchema, {
    method: 'PATCH',
    url: `/catalogues/${encodeURIComponent(catalogueId)}`,
    data: { reorderPoint },
  });

/**
 * The new point shows wherever the catalogue is read, and the products' lists and summaries are
 * read again (which products are to reorder changed); then the screen's onSuccess.
 */
export function useSetCatalogueReorderPoint({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof setCatalogueReorderPoint> } = {}) {
  const queryClient = useQueryClient();
  return useMutationHook(setCatalogueReorderPoint, mutationConfig, async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.catalogues, exact: true });
    // Every catalogue's products: the personal one's keys name it 'personal', not by its id.
    await queryClient.invalidateQueries({ queryKey: queryKeys.allProducts });
  });
}
