import type { QueryClient } from '@tanstack/react-query';
import type { Product } from '@shared/schemas/products.js';
import { catalogueKey, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { postMove } from './move-request.js';
import type { QueuedMove, QueuedMoveLine, StockChangeSource } from '../pending.js';
import { newChangeKey, productsOf, refreshAfterStockChanges } from '../request.js';
import { sendOrQueue } from '../send-or-queue.js';

/** A move as a screen asks for it: its lines, and where they go in words (for messages). */
export interface MoveRequest {
  catalogue: CatalogueRef;
  lines: QueuedMoveLine[];
  toPath: string;
  source: StockChangeSource;
}

/** What a move did: sent (the server's message) or kept to send later. */
export type MoveResult = { queued: false; message: string } | { queued: true };

type Places = NonNullable<Product['locations']>;

/** A product's places with `quantity` more (or less) at one location; empty places go. */
function shifted(places: Places, locationId: string, quantity: number, path: string): Places {
  const found = places.some((place) => place.locationId === locationId);
  const next = found
    ? places.map((place) =>
        place.locationId === locationId ? { ...place, quantity: place.quantity + quantity } : place,
      )
    : [...places, { locationId, path, quantity }];
  return next.filter((place) => place.quantity > 0).sort((a, b) => a.path.localeCompare(b.path));
}

/** A location's path as the cached tree knows it ('' when it is not loaded). */
function pathIn(queryClient: QueryClient, catalogue: CatalogueRef, id: string) {
  const tree = queryClient.getQueryData<{ id: string; path: string }[]>([
    'locations',
    catalogueKey(catalogue),
  ]);
  return tree?.find((location) => location.id === id)?.path ?? '';
}

/**
 * Where a move leaves each product's stock, wherever a product page has it cached (`undo`: where
 * it was); a product's total never changes.
 */
function patchMovedPlaces(
  queryClient: QueryClient,
  catalogue: CatalogueRef,
  lines: readonly QueuedMoveLine[],
  undo = false,
) {
  for (const { productId, from, to, quantity } of lines) {
    queryClient.setQueryData<Product>(queryKeys.product(catalogue, productId), (product) => {
      if (!product?.locations) return product;
      const moved = undo ? -quantity : quantity;
      const taken = shifted(product.locations, from, -moved, pathIn(queryClient, catalogue, from));
      return {
        ...product,
        locations: shifted(taken, to, moved, pathIn(queryClient, catalogue, to)),
      };
    });
  }
}

/**
 * A move of stock between locations through the one stock-change module: offline or behind
 * waiting changes it joins the queue and goes in its turn; otherwise it shows at once on the
 * product pages cached, goes with a new Idempotency-Key, and is taken back when refused (the
 * server's error is thrown) or kept with the same key when no answer came.
 */
export async function moveStock(
  queryClient: QueryClient,
  { catalogue, lines, toPath, source }: MoveRequest,
): Promise<MoveResult> {
  const move: QueuedMove = {
    kind: 'move',
    key: newChangeKey(),
    catalogueId: catalogue,
    lines,
    toPath,
    source,
    madeAt: new Date().toISOString(),
  };
  return sendOrQueue(move, {
    send: async () => {
      patchMovedPlaces(queryClient, catalogue, lines);
      const { message } = await postMove(move);
      return { queued: false as const, message };
    },
    undo: () => patchMovedPlaces(queryClient, catalogue, lines, true),
    settle: () => refreshAfterStockChanges(queryClient, productsOf(catalogue, lines)),
  });
}
