import type { LiveEventData, LiveEventKind } from '../../../shared/schemas/live-events.js';
import type { DB } from '../../infra/db/handle.js';

/**
 * Records one event of a catalogue in the transaction of its change: it exists (and is streamed)
 * exactly when the change commits. Every write that records one bumped the owner's catalogue
 * version first in the same transaction, which locks the owner's row until the commit, so one
 * owner's events commit in the order of their ids (a reconnect resumes by id without a gap).
 */
export async function recordLiveEvent<K extends LiveEventKind>(
  trx: DB,
  catalogueId: string,
  kind: K,
  data: Omit<LiveEventData<K>, 'catalogueId'>,
  now: number,
): Promise<void> {
  await trx
    .insertInto('live_events')
    .values({
      catalogue_id: catalogueId,
      kind,
      data: JSON.stringify({ ...data, catalogueId }),
      created_at: now,
    })
    .execute();
}

/**
 * Tells one user's streams that their membership of a catalogue changed. It is recorded in the
 * user's personal catalogue (whose id is the user's): the one catalogue always theirs, which
 * outlives the other and replays after a reconnect. The hub writes it to that user only, and
 * follows it: `catalogue.removed` ends their streams (their reconnects no longer carry the
 * catalogue); after `catalogue.updated` (they joined) their streams carry it.
 */
async function recordMembershipNotice(
  trx: DB,
  userId: string,
  kind: 'catalogue.updated' | 'catalogue.removed',
  catalogueId: string,
  now: number,
) {
  await trx
    .insertInto('live_events')
    .values({ catalogue_id: userId, kind, data: JSON.stringify({ catalogueId }), created_at: now })
    .execute();
}

/** The catalogue was renamed, or a member's role changed: its members read it again. */
export const recordCatalogueUpdated = (trx: DB, catalogueId: string, now: number) =>
  recordLiveEvent(trx, catalogueId, 'catalogue.updated', {}, now);

/**
 * A user joined the catalogue: its members hear of it, then the user's own streams start
 * carrying it (the notice comes second, so they hear of their joining once).
 */
export async function recordMemberJoined(
  trx: DB,
  catalogueId: string,
  userId: string,
  now: number,
) {
  await recordCatalogueUpdated(trx, catalogueId, now);
  await recordMembershipNotice(trx, userId, 'catalogue.updated', catalogueId, now);
}

/**
 * A member left or was removed: their streams hear `catalogue.removed` and drop the catalogue
 * first, then the remaining members hear of the change.
 */
export async function recordMemberGone(trx: DB, catalogueId: string, userId: string, now: number) {
  await recordMembershipNotice(trx, userId, 'catalogue.removed', catalogueId, now);
  await recordCatalogueUpdated(trx, catalogueId, now);
}

/** The catalogue is being deleted: each of its members hears `catalogue.removed`. */
export async function recordCatalogueDeleted(
  trx: DB,
  catalogueId: string,
  memberIds: readonly string[],
  now: number,
) {
  for (const userId of memberIds) {
    await recordMembershipNotice(trx, userId, 'catalogue.removed', catalogueId, now);
  }
}
