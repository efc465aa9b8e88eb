import type { QueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { bearer } from '@/lib/auth/token.js';
import { countsUrl, patchCountLine } from '@/lib/counts/counts-query.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { sourceHeader } from '@/lib/source-header.js';
import { IDEMPOTENCY_HEADER, type QueuedCountLine } from './pending.js';

/**
 * POST …/counts/{countId}/lines {productId, locationId, counted, add} → {message, line}, with the
 * line's own Idempotency-Key: a line queued offline and sent twice counts once.
 */
const postCountLine = (
  { key, catalogueId, countId, line, source }: QueuedCountLine,
  token: string | undefined,
) =>
  apiRequest(() => import('@shared/schemas/counts/counts.js').then((m) => m.countLineSavedSchema), {
    method: 'POST',
    url: countsUrl(catalogueId, `/${encodeURIComponent(countId)}/lines`),
    headers: {
      [IDEMPOTENCY_HEADER]: key,
      ...(source ? sourceHeader(source) : {}),
      ...(token ? bearer(token) : {}),
    },
    data: {
      productId: line.productId,
      locationId: line.locationId,
      counted: line.counted,
      add: line.add,
    },
  });

/**
 * Sends a count's line and writes the answer into the cached count (the offline queue's replay
 * too, with its owner's `token`): patched in place where it can be, else the count is read again.
 */
export async function sentCountLine(
  queryClient: QueryClient,
  change: QueuedCountLine,
  token?: string,
) {
  const { line } = await postCountLine(change, token);
  if (!patchCountLine(queryClient, change.catalogueId, change.countId, line)) {
    void queryClient.invalidateQueries({
      queryKey: queryKeys.count(change.catalogueId, change.countId),
    });
  }
  void queryClient.invalidateQueries({ queryKey: queryKeys.countList(change.catalogueId) });
  return line;
}
