import { setImmediate } from 'node:timers/promises';
import type { Selectable } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { WebhookFanoutsTable } from '../../infra/db/schema-webhooks.js';
import type { Job } from '../../infra/runner/queue.js';
import type { Clock } from '../../lib/clock.js';
import { eventsPerStatement, insertDeliveries } from './enqueue.js';

export type FanoutRow = Selectable<WebhookFanoutsTable>;

/** How long a worker owns a claimed row of events; each step renews it. */
export const FANOUT_LEASE_MS = 60_000;

/**
 * Writes the deliveries of a row of events queued in bulk (enqueueWebhookEvents): a step of
 * events to every listening endpoint per transaction, one INSERT each, with a turn of the event
 * loop between steps, so other writers wait for one step at most; then deletes the row. Each step
 * moves `expanded` on only while the claim is still this one and no step was written since:
 * a worker that takes over from one that stalled past its lease goes on where it stopped, and
 * the stalled one stops, so each event reaches each endpoint once. An endpoint deleted since
 * the write took its deliveries with it: it gets none. `written` runs after each step's commit.
 */
export async function expandFanout(
  db: DB,
  clock: Clock,
  job: Job<FanoutRow>,
  signal: AbortSignal,
  written: () => void | Promise<void>,
): Promise<void> {
  const { row } = job;
  const bodies = row.payloads.split('\n');
  const webhookIds = JSON.parse(row.webhook_ids) as string[];
  const perStep = eventsPerStatement(webhookIds.length);
  const event = { catalogueId: row.catalogue_id, type: row.event_type, at: row.created_at };
  for (let from = row.expanded; from < bodies.length; from += perStep) {
    if (signal.aborted) return job.release();
    const to = Math.min(from + perStep, bodies.length);
    const stillOurs = await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('webhook_fanouts')
        .set({ expanded: to, locked_until: clock.now() + FANOUT_LEASE_MS })
        .where('id', '=', row.id)
        .where('attempts', '=', row.attempts)
        .where('expanded', '=', from)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
      const live = await trx
        .selectFrom('webhooks')
        .select('id')
        .where('id', 'in', webhookIds)
        .execute();
      const endpoints = live.map((hook) => hook.id);
      if (endpoints.length > 0) {
        await insertDeliveries(trx, event, bodies.slice(from, to), endpoints);
      }
      return true;
    });
    if (!stillOurs) return;
    await written();
    await setImmediate();
  }
  await db
    .deleteFrom('webhook_fanouts')
    .where('id', '=', row.id)
    .where('attempts', '=', row.attempts)
    .execute();
}
