import { z } from 'zod';
import { productSchema, uuid } from './products.js';

/**
 * What `GET /api/events` streams: one Server-Sent Event per committed change of the signed-in
 * user's catalogue. Each event is framed as `id: <sequence>`, `event: <kind>` and one `data:` line
 * of JSON matching the kind's schema below. The `id` grows with every change, so a reconnect sends
 * it back as `Last-Event-ID` and gets the changes after it; when the server no longer holds them,
 * it sends one `reset` event and the client reads everything again. Comment lines (`: heartbeat`)
 * keep the connection open and carry nothing.
 */
/** Every change names the catalogue it happened in: a stream may carry several. */
const change = <T extends z.ZodRawShape>(shape: T) => z.object({ catalogueId: uuid, ...shape });

export const liveEventSchemas = {
  /** A product was created: the whole product, as `GET /api/products/{id}` answers. */
  'product.created': change({ product: productSchema }),
  /** A product's fields (or image) changed: the whole product after the change. */
  'product.updated': change({ product: productSchema }),
  /** One product was deleted. */
  'product.deleted': change({ id: uuid }),
  /** A product's stock changed (an adjustment, a count, or a scan): its new stock. */
  'stock.changed': change({ id: uuid, stock: z.number().int(), updatedAt: z.string() }),
  /** Stock moved between locations: these products' totals are the same, their places not. */
  'stock.transferred': change({ ids: z.array(uuid) }),
  /**
   * Suppliers or purchase orders changed; `productIds` are the products whose stock or cost a
   * receipt changed (read them again), empty otherwise.
   */
  'purchasing.changed': change({ productIds: z.array(uuid) }),
  /**
   * A stock count started, moved to review, was posted or cancelled (or its posting undone).
   * `stockChanged`: the posting (or its undo) changed products' stock: read them again.
   */
  'count.updated': change({
    countId: uuid,
    status: z.enum(['open', 'review', 'posted', 'cancelled']),
    stockChanged: z.boolean(),
  }),
  /**
   * A line of a count was counted: what the other counters' screens show. Never `expected`,
   * which a blind count hides from most members.
   */
  'count.line': change({
    countId: uuid,
    productId: uuid,
    locationId: uuid,
    counted: z.number().int(),
    countedBy: z.object({ id: uuid, name: z.string() }).nullable(),
    countedAt: z.string(),
  }),
  /** Several products were deleted at once. */
  'products.deleted': change({ ids: z.array(uuid) }),
  /** A CSV import committed: too many changes to send one by one, so the client reads again. */
  'import.done': change({ created: z.number().int(), updated: z.number().int() }),
  /**
   * A catalogue the user belongs to changed: renamed, or a member joined, left, was removed or got
   * another role (the user's own joining included). Read the catalogues (and members) again.
   */
  'catalogue.updated': change({}),
  /**
   * The user no longer belongs to the catalogue: removed, left, or it was deleted. It is the
   * stream's last event (reconnect: the new stream carries the other catalogues); drop what is
   * held of that catalogue and leave its screens.
   */
  'catalogue.removed': change({}),
  /** The server cannot replay from the `Last-Event-ID` sent: read everything again. */
  reset: z.object({}),
} as const;

export type LiveEventKind = keyof typeof liveEventSchemas;
export type LiveEventData<K extends LiveEventKind> = z.infer<(typeof liveEventSchemas)[K]>;
export type LiveEvent = {
  [K in LiveEventKind]: { id: string; kind: K; data: LiveEventData<K> };
}[LiveEventKind];

export const LIVE_EVENT_KINDS = Object.keys(liveEventSchemas) as LiveEventKind[];

/** How often the server writes a heartbeat comment on an idle stream. */
export const LIVE_HEARTBEAT_MS = 25_000;
/** Streams one user may hold open at once; the next one is refused with 429. */
export const LIVE_STREAMS_PER_USER = 10;

/** The header a product write carries so that sending it again changes nothing more. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
