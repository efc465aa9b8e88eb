import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { webhooksUrl } from './schemas.js';
import { useWebhookMutation } from './webhook-mutation.js';

/** DELETE /catalogues/{catalogueId}/webhooks/{webhookId} → {message}. */
const deleteWebhook = ({ catalogueId, webhookId }: { catalogueId: string; webhookId: string }) =>
  apiRequest(messageResponse, { method: 'DELETE', url: webhooksUrl(catalogueId, webhookId) });

export const useDeleteWebhook = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteWebhook> } = {}) =>
  useWebhookMutation(deleteWebhook, mutationConfig);
