import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { webhooksKey, webhooksUrl } from './schemas.js';

/** DELETE /catalogues/{catalogueId}/webhooks/{webhookId} → {message}. */
const deleteWebhook = ({ catalogueId, webhookId }: { catalogueId: string; webhookId: string }) =>
  apiRequest(messageResponse, { method: 'DELETE', url: webhooksUrl(catalogueId, webhookId) });

export function useDeleteWebhook({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteWebhook> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: deleteWebhook,
    onSuccess: async (data, variables, ...rest) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKey(variables.catalogueId) });
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
