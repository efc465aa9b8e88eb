import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import type { DB } from '../../infra/db/handle.js';

/**
 * Queues an event for every enabled endpoint of the catalogue subscribed to `type`, in the
 * caller's transaction: deliveries exist exactly when the change committed. The body is fixed
 * now, Standard Webhooks style: `{ type, timestamp, data }`. An `actor` given by id alone in
 * `data` is named here (read only when some endpoint listens). Returns how many were queued.
 */
export async function enqueueWebhookEvent(
  trx: DB,
  catalogueId: string,
  type: string,
  data: object,
  now: number = Date.now(),
): Promise<number> {
  return enqueueWebhookEvents(trx, catalogueId, type, [data], now);
}

/** Deliveries per INSERT: 13 values each, under either engine's limit on bound parameters. */
const DELIVERY_ROWS = 500;

/** Events per row of events queued in bulk: its bodies made, or read back, in a millisecond or two. */
const EVENTS_PER_FANOUT = 2_000;

/**
 * Queues several events of one type at once (a bulk write's products that reached their reorder
 * point): the catalogue's endpoints are read once, not once per event. More deliveries than one
 * statement writes are committed as rows of events instead, with a turn of the event loop between
 * rows (a million deliveries, for 50,000 products and 20 endpoints, held SQLite's write lock for
 * seconds): the runner writes them (fanouts.ts).
 */
export async function enqueueWebhookEvents(
  trx: DB,
  catalogueId: string,
  type: string,
  events: object[],
  now: number = Date.now(),
): Promise<number> {
  if (events.length === 0) return 0;
  const hooks = await trx
    .selectFrom('webhooks')
    .select(['id', 'events'])
    .where('catalogue_id', '=', catalogueId)
    .where('enabled', '=', 1)
    .execute();
  const listening = hooks
    .filter((hook) => (JSON.parse(hook.events) as string[]).includes(type))
    .map((hook) => hook.id);
  if (listening.length === 0) return 0;
  const event = { catalogueId, type, at: now };
  if (events.length * listening.length <= DELIVERY_ROWS) {
    await insertDeliveries(trx, event, await bodiesOf(trx, event, events), listening);
    return events.length * listening.length;
  }
  for (let i = 0; i < events.length; i += EVENTS_PER_FANOUT) {
    const bodies = await bodiesOf(trx, event, events.slice(i, i + EVENTS_PER_FANOUT));
    await trx
      .insertInto('webhook_fanouts')
      .values({
        id: randomUUID(),
        catalogue_id: catalogueId,
        event_type: type,
        webhook_ids: JSON.stringify(listening),
        // A JSON text has no raw line break: one body per line.
        payloads: bodies.join('\n'),
        next_attempt_at: now,
        locked_until: null,
        created_at: now,
      })
      .execute();
    await setImmediate();
  }
  return events.length * listening.length;
}

/** The events' bodies, fixed now, Standard Webhooks style. */
async function bodiesOf(
  trx: DB,
  event: { type: string; at: number },
  events: readonly object[],
): Promise<string[]> {
  const timestamp = new Date(event.at).toISOString();
  const bodies: string[] = [];
  for (const data of events) {
    bodies.push(JSON.stringify({ type: event.type, timestamp, data: await namedActor(trx, data) }));
  }
  return bodies;
}

/** Events for each endpoint that delivers them: the most `insertDeliveries` takes in one INSERT. */
export const eventsPerStatement = (endpoints: number) =>
  Math.max(1, Math.floor(DELIVERY_ROWS / endpoints));

/** A delivery of each body to each endpoint, pending from the event's time. */
export async function insertDeliveries(
  trx: DB,
  event: { catalogueId: string; type: string; at: number },
  bodies: readonly string[],
  webhookIds: readonly string[],
): Promise<void> {
  const rows = [];
  for (const payload of bodies) {
    for (const webhookId of webhookIds) {
      rows.push({
        id: randomUUID(),
        webhook_id: webhookId,
        catalogue_id: event.catalogueId,
        event_type: event.type,
        payload,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: event.at,
        locked_until: null,
        last_status: null,
        last_error: null,
        created_at: event.at,
        delivered_at: null,
      });
    }
  }
  for (let i = 0; i < rows.length; i += DELIVERY_ROWS) {
    await trx
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + DELIVERY_ROWS))
      .execute();
  }
}

async function namedActor(trx: DB, data: object): Promise<object> {
  const actor = (data as { actor?: unknown }).actor;
  if (!actor || typeof actor !== 'object' || 'name' in actor || !('id' in actor)) return data;
  const id = String(actor.id);
  const user = await trx.selectFrom('users').select('name').where('id', '=', id).executeTakeFirst();
  return { ...data, actor: { id, name: user?.name ?? null } };
}

/** What an activity entry says, as the data of its webhook event. */
export function activityEvent(
  scope: { actorId: string | null },
  kind: string,
  entry: { product?: { id: string; name: string } | undefined; data?: object },
  now: number,
) {
  const { changes, ...rest } = (entry.data ?? {}) as { changes?: unknown };
  return {
    kind,
    product: entry.product ? { id: entry.product.id, name: entry.product.name } : null,
    actor: scope.actorId === null ? null : { id: scope.actorId },
    ...(changes === undefined ? {} : { changes }),
    data: rest,
    at: new Date(now).toISOString(),
  };
}
