import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { webhookSavedSchema, webhooksKey, webhooksUrl } from './schemas.js';

/** PATCH /catalogues/{catalogueId}/webhooks/{webhookId} {enabled} → {message, webhook}. */
const updateWebhook = ({
  catalogueId,
  webhookId,
  enabled,
}: {
  catalogueId: string;
  webhookId: string;
  enabled: boolean;
}) =>
  apiRequest(webhookSavedSchema, {
    method: 'PATCH',
    url: webhooksUrl(catalogueId, webhookId),
    data: { enabled },
  });

export function useUpdateWebhook({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updateWebhook> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: updateWebhook,
    onSuccess: async (data, variables, ...rest) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKey(variables.catalogueId) });
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
