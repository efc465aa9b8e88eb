import { randomUUID } from 'node:crypto';
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

/**
 * Queues several events of one type at once (a bulk write's products that reached their reorder
 * point): the catalogue's endpoints are read once, not once per event.
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
  const listening = hooks.filter((hook) => (JSON.parse(hook.events) as string[]).includes(type));
  if (listening.length === 0) return 0;
  const rows = [];
  for (const data of events) {
    const body = JSON.stringify({
      type,
      timestamp: new Date(now).toISOString(),
      data: await namedActor(trx, data),
    });
    for (const hook of listening) {
      rows.push({
        id: randomUUID(),
        webhook_id: hook.id,
        catalogue_id: catalogueId,
        event_type: type,
        payload: body,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        last_status: null,
        last_error: null,
        created_at: now,
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
  return rows.length;
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
