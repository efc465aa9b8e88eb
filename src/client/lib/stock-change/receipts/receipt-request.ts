import type { QueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { bearer } from '@/lib/auth/token.js';
import { catalogueKey } from '@/lib/catalogue-ref.js';
import { sourceHeader } from '@/lib/source-header.js';
import { IDEMPOTENCY_HEADER, type QueuedReceipt } from '../pending.js';

/** Where an order's receipts go: `/purchase-orders/{poId}/receipts`, or under the catalogue. */
const receiptsUrl = (catalogueId: string | undefined, poId: string) =>
  `${catalogueId ? `/catalogues/${encodeURIComponent(catalogueId)}` : ''}/purchase-orders/${encodeURIComponent(poId)}/receipts`;

/**
 * POST …/purchase-orders/{poId}/receipts {locationId, lines} → {message, purchaseOrder,
 * overReceived}, with the receipt's own Idempotency-Key: a receipt sent again after a lost answer
 * counts once.
 */
export const postReceipt = (
  { key, catalogueId, poId, locationId, lines, source }: QueuedReceipt,
  /** The token it must go with (the queue's owner's); by default the browser's. */
  token?: string,
) =>
  apiRequest(
    () =>
      import('@shared/schemas/purchasing/purchase-orders.js').then((m) => m.receiptResponseSchema),
    {
      method: 'POST',
      url: receiptsUrl(catalogueId, poId),
      headers: {
        [IDEMPOTENCY_HEADER]: key,
        ...(source ? sourceHeader(source) : {}),
        ...(token ? bearer(token) : {}),
      },
      data: {
        locationId,
        lines: lines.map(({ productId, quantity }) => ({ productId, quantity })),
      },
    },
  );

/** After a receipt: the catalogue's orders (what is still expected, their statuses) read again. */
export const afterReceipt = (queryClient: QueryClient, catalogueId: string | undefined) =>
  queryClient.invalidateQueries({ queryKey: ['purchasing', catalogueKey(catalogueId)] });
