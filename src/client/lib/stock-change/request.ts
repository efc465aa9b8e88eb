import type { QueryClient } from '@tanstack/react-query';
import type { Product } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { bearer } from '@/lib/auth/token.js';
import { getErrorStatus, isUnreachable } from '@/lib/api-error.js';
import { catalogueKey, productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { noteStockWrite, patchCachedProduct } from '@/lib/query/product-cache.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { sourceHeader } from '@/lib/source-header.js';
import {
  IDEMPOTENCY_HEADER,
  pendingSnapshot,
  stockChangesInFlight,
  type QueuedStockChange,
} from './pending.js';

/** A key for a new change, made once and sent with each attempt (Idempotency-Key). */
export function newChangeKey(): string {
  // randomUUID needs a secure context (https or localhost); a LAN address over http has none.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether a new change must wait behind others: the browser is offline, or changes made earlier
 * still wait (they go first, in the order made).
 */
export const mustQueueStockChange = () => !navigator.onLine || pendingSnapshot().changes.length > 0;

/**
 * A stock change's request that got no answer worth keeping: none at all (offline, dropped), or a
 * proxy or server that is down. It may have been applied, so it is kept and sent again with the
 * same key; any other answer is final.
 */
export const gotNoAnswer = (error: unknown) =>
  isUnreachable(error) && [undefined, 502, 503, 504].includes(getErrorStatus(error));

/**
 * POST /products/{id}/stock (or /catalogues/{catalogueId}/products/{id}/stock) {delta | count,
 * reason?, note?, locationId?} → {message, product}, with the change's own Idempotency-Key and the
 * screen it was made on; 409 when a delta would take the location below 0.
 */
export const postStockChange = (
  {
    key,
    catalogueId,
    productId,
    delta,
    count,
    reason,
    note,
    source,
    locationId,
  }: QueuedStockChange,
  /** The token it must go with (the queue's owner's); by default the browser's. */
  token?: string,
) =>
  apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productMutationResponseSchema),
    {
      method: 'POST',
      url: productsUrl(catalogueId, `/${encodeURIComponent(productId)}/stock`),
      headers: {
        [IDEMPOTENCY_HEADER]: key,
        ...(source ? sourceHeader(source) : {}),
        ...(token ? bearer(token) : {}),
      },
      // Only what was given: an empty note or reason is none.
      data: Object.fromEntries(
        Object.entries({ delta, count, reason, note, locationId }).filter(
          ([, value]) => value !== undefined && value !== '',
        ),
      ),
    },
  );

/**
 * The stock as a change leaves it; `undo` takes a delta back (a count of the whole stock is read
 * again instead; a count at one location moves it by its shift).
 */
export const applyChange =
  ({ delta, count, shift }: Pick<QueuedStockChange, 'delta' | 'count' | 'shift'>, undo = false) =>
  <T extends { stock: number }>(product: T): T => {
    if (count !== undefined && shift === undefined) {
      return undo ? product : { ...product, stock: count };
    }
    const moved = delta ?? shift ?? 0;
    return { ...product, stock: product.stock + (undo ? -moved : moved) };
  };

/** Writes the server's count of an accepted change wherever the product is cached. */
export function writeServerStock(
  queryClient: QueryClient,
  catalogue: CatalogueRef,
  product: Product,
) {
  noteStockWrite(product.id, product.updatedAt);
  patchCachedProduct(queryClient, catalogue, product.id, (cached) => ({
    ...cached,
    stock: product.stock,
  }));
}

/** The products of a change's lines, in its catalogue: what refreshAfterStockChanges reads again. */
export const productsOf = (catalogueId: CatalogueRef, lines: readonly { productId: string }[]) =>
  lines.map(({ productId }) => ({ catalogueId, productId }));

/**
 * After changes were sent: the products' histories, where their stock is (a product page with
 * nothing else on its way) and the catalogues' totals and locations read again; the list is
 * marked stale rather than read again now (a sort by stock would move the card under the pointer),
 * unless `lists` is 'now': changes another tab sent, whose stock the lists here do not hold.
 */
export const refreshAfterStockChanges = (
  queryClient: QueryClient,
  changed: readonly { catalogueId?: string | undefined; productId: string }[],
  { lists = 'later' }: { lists?: 'later' | 'now' } = {},
) => {
  const catalogues = new Set(changed.map(({ catalogueId }) => catalogueId));
  const products = new Map(changed.map(({ catalogueId, productId }) => [productId, catalogueId]));
  return Promise.all([
    ...[...products].flatMap(([productId, catalogueId]) => [
      queryClient.invalidateQueries({ queryKey: queryKeys.movements(catalogueId, productId) }),
      stockChangesInFlight(productId) === 0 &&
        queryClient.invalidateQueries({
          queryKey: queryKeys.product(catalogueId, productId),
          exact: true,
        }),
    ]),
    ...[...catalogues].flatMap((catalogue) => [
      queryClient.invalidateQueries({ queryKey: ['locations', catalogueKey(catalogue)] }),
      queryClient.invalidateQueries({ queryKey: queryKeys.productSummaries(catalogue) }),
      queryClient.invalidateQueries({
        queryKey: queryKeys.products(catalogue),
        refetchType: lists === 'now' ? 'active' : 'none',
      }),
    ]),
  ]);
};
