import {
  isWebhookSettingKind,
  type ActivityKind,
  type ActivitySource,
} from '../../../shared/activity.js';
import type { DB } from '../../infra/db/handle.js';
import { activityEvent, enqueueWebhookEvent } from '../webhooks/index.js';

/** Who changed which catalogue, and from where: what an activity entry is written for. */
export interface ActivityScope {
  id: string;
  actorId: string | null;
  /** 'api' when not given. */
  source?: ActivitySource;
}

/** What an entry tells beyond its kind. */
export interface ActivityDetails {
  product?: { id: string; name: string } | undefined;
  data?: object;
  /** What an undo puts back (a deleted product's row and history), kept apart from `data`. */
  snapshot?: object | undefined;
  /** A deleted product's picture: its files stay while the delete can be undone. */
  imageKey?: string | null;
  /** On an undo entry, the entry undone (unique: one undo per entry). */
  undoes?: number;
}

/**
 * Records what a member did to a catalogue, in the transaction of the change: the entry exists
 * exactly when the change committed. It keeps the product's id and name, so it still tells what
 * happened once the product is gone; the catalogue's webhooks are queued with it. Returns the
 * entry's id.
 */
export async function recordActivity(
  trx: DB,
  scope: ActivityScope,
  kind: ActivityKind,
  entry: ActivityDetails,
  now: number,
): Promise<number> {
  const id = await insertActivity(trx, scope, kind, entry, now);
  await announceActivity(trx, scope, kind, entry, now);
  return id;
}

/** The entry's row alone: its webhooks are announceActivity's (an undo's, once it is whole). */
export async function insertActivity(
  trx: DB,
  scope: ActivityScope,
  kind: ActivityKind,
  entry: ActivityDetails,
  now: number,
): Promise<number> {
  const { id } = await trx
    .insertInto('activity_entries')
    .values({
      catalogue_id: scope.id,
      actor_id: scope.actorId,
      kind,
      source: scope.source ?? 'api',
      product_id: entry.product?.id ?? null,
      product_name: entry.product?.name ?? null,
      data: JSON.stringify(entry.data ?? {}),
      snapshot: entry.snapshot === undefined ? null : JSON.stringify(entry.snapshot),
      image_key: entry.imageKey ?? null,
      undoes: entry.undoes ?? null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

/**
 * Queues the entry as a webhook event for the endpoints listening to its kind, in the same
 * transaction: they are told once it commits, with the data the entry holds. Changes of the
 * endpoints themselves are no event.
 */
export async function announceActivity(
  trx: DB,
  scope: ActivityScope,
  kind: ActivityKind,
  entry: ActivityDetails,
  now: number,
): Promise<void> {
  if (isWebhookSettingKind(kind)) return;
  await enqueueWebhookEvent(trx, scope.id, kind, activityEvent(scope, kind, entry, now), now);
}
