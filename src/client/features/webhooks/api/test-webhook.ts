import { apiRequest } from '@/lib/api-client.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { deliverySchema, webhooksUrl } from './schemas.js';
import { useWebhookMutation } from './webhook-mutation.js';

/** POST /catalogues/{catalogueId}/webhooks/{webhookId}/test → {delivery}, once it ended. */
const testWebhook = ({ catalogueId, webhookId }: { catalogueId: string; webhookId: string }) =>
  apiRequest(deliverySchema, {
    method: 'POST',
    url: `${webhooksUrl(catalogueId, webhookId)}/test`,
    data: {},
  });

export const useTestWebhook = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof testWebhook> } = {}) =>
  useWebhookMutation(testWebhook, mutationConfig);
