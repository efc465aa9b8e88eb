import { apiRequest } from '@/lib/api-client.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { webhookSavedSchema, webhooksUrl } from './schemas.js';
import { useWebhookMutation } from './webhook-mutation.js';

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

export const useUpdateWebhook = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updateWebhook> } = {}) =>
  useWebhookMutation(updateWebhook, mutationConfig);
