import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookEvent } from '@shared/schemas/webhooks/webhooks.js';
import { apiRequest } from '@/lib/api-client.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { webhookCreatedSchema, webhooksKey, webhooksUrl } from './schemas.js';

interface NewWebhook {
  catalogueId: string;
  url: string;
  events: WebhookEvent[];
}

/** POST /catalogues/{catalogueId}/webhooks {url, events} → 201 {message, webhook, secret}. */
const createWebhook = ({ catalogueId, url, events }: NewWebhook) =>
  apiRequest(webhookCreatedSchema, {
    method: 'POST',
    url: webhooksUrl(catalogueId),
    data: { url, events },
  });

/** The endpoints are read again; then the screen's onSuccess. */
export function useCreateWebhook({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof createWebhook> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: createWebhook,
    onSuccess: async (data, variables, ...rest) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKey(variables.catalogueId) });
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
