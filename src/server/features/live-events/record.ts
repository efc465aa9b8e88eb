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
