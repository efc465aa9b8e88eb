import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { catalogueBodySchema } from '@shared/schemas/catalogues.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';
import { catalogueMessageSchema } from './schemas.js';

type CatalogueBody = z.infer<typeof catalogueBodySchema>;

/** POST /catalogues {name} → 201 {message, catalogue}: the user owns it. */
const createCatalogue = (body: CatalogueBody) =>
  apiRequest(catalogueMessageSchema, { method: 'POST', url: '/catalogues', data: body });

/** A new catalogue joins the list; then the screen's onSuccess. */
export function useCreateCatalogue({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof createCatalogue> } = {}) {
  const queryClient = useQueryClient();
  return useMutationHook(createCatalogue, mutationConfig, () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.catalogues, exact: true }),
  );
}
