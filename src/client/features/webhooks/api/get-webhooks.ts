import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { webhooksKey, webhooksSchema, webhooksUrl } from './schemas.js';

/** GET /catalogues/{catalogueId}/webhooks → {webhooks} (owner and admins). */
const getWebhooks = async (catalogueId: string, signal?: AbortSignal) => {
  const { webhooks } = await apiRequest(webhooksSchema, { url: webhooksUrl(catalogueId), signal });
  return webhooks;
};

export const useWebhooks = (catalogueId: string) =>
  useQuery(
    queryOptions({
      queryKey: webhooksKey(catalogueId),
      queryFn: ({ signal }) => getWebhooks(catalogueId, signal),
      retry: 1,
    }),
  );
