import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { deliverySchema, webhooksKey, webhooksUrl } from './schemas.js';

/** POST /catalogues/{catalogueId}/webhooks/{webhookId}/test → {delivery}, once it ended. */
const testWebhook = ({ catalogueId, webhookId }: { catalogueId: string; webhookId: string }) =>
  apiRequest(deliverySchema, {
    method: 'POST',
    url: `${webhooksUrl(catalogueId, webhookId)}/test`,
    data: {},
  });

/** The endpoints are read again (the test changed the last status); then the screen's onSuccess. */
export function useTestWebhook({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof testWebhook> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: testWebhook,
    onSuccess: async (data, variables, ...rest) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKey(variables.catalogueId) });
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
