import type { WebhookEvent } from '@shared/schemas/webhooks/webhooks.js';
import { apiRequest } from '@/lib/api-client.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { webhookCreatedSchema, webhooksUrl } from './schemas.js';
import { useWebhookMutation } from './webhook-mutation.js';

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

export const useCreateWebhook = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof createWebhook> } = {}) =>
  useWebhookMutation(createWebhook, mutationConfig);
