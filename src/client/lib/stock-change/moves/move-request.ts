import { apiRequest } from '@/lib/api-client.js';
import { bearer } from '@/lib/auth/token.js';
import { sourceHeader } from '@/lib/source-header.js';
import { IDEMPOTENCY_HEADER, type QueuedMove } from '../pending.js';

/** Where a catalogue's moves go: `/stock/transfers`, or `/catalogues/{id}/stock/transfers`. */
const transfersUrl = (catalogueId: string | undefined) =>
  `${catalogueId ? `/catalogues/${encodeURIComponent(catalogueId)}` : ''}/stock/transfers`;

/**
 * POST …/stock/transfers {lines} → {message, products}: every line moves or none (409 naming the
 * product and the location short of it), with the move's own Idempotency-Key, so that a move sent
 * again after a lost answer is made once.
 */
export const postMove = (
  { key, catalogueId, lines, source }: QueuedMove,
  /** The token it must go with (the queue's owner's); by default the browser's. */
  token?: string,
) =>
  apiRequest(
    () => import('@shared/schemas/locations/transfers.js').then((m) => m.transferResponseSchema),
    {
      method: 'POST',
      url: transfersUrl(catalogueId),
      headers: {
        [IDEMPOTENCY_HEADER]: key,
        ...(source ? sourceHeader(source) : {}),
        ...(token ? bearer(token) : {}),
      },
      data: {
        lines: lines.map(({ productId, from, to, quantity }) => ({
          productId,
          from,
          to,
          quantity,
        })),
      },
    },
  );
