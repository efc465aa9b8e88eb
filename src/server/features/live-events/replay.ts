import type { DatabaseHandle } from '../../infra/db/handle.js';
import { RESET_FRAME, type EventRow } from './events.js';
import { send, type Stream } from './streams.js';

/** A replay longer than this is a reset instead: reading everything again is cheaper. */
export const REPLAY_MAX = 1_000;

/** What a stream starts with (startOf). */
export interface Start {
  catalogues: string[];
  rows: EventRow[];
  after: number;
}

export async function memberships(database: DatabaseHandle, userId: string): Promise<string[]> {
  const rows = await database.db
    .selectFrom('catalogue_members')
    .select('catalogue_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((row) => row.catalogue_id);
}

export async function maxId(database: DatabaseHandle): Promise<number> {
  const row = await database.db
    .selectFrom('live_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * What a stream starts with: the user's catalogues now, and the events after `lastEventId` in
 * them (none, and `reset`, when some are no longer held). `after`: events up to it are not
 * written, as the client has them (or, without `lastEventId`, they came before it connected).
 */
export async function startOf(
  database: DatabaseHandle,
  stream: Stream,
  lastEventId: string | undefined,
): Promise<Start> {
  const { db } = database;
  const catalogues = await memberships(database, stream.userId);
  if (lastEventId === undefined) return { catalogues, rows: [], after: await maxId(database) };
  const after = /^[0-9]{1,15}$/.test(lastEventId) ? Number(lastEventId) : -1;
  const bounds = await db
    .selectFrom('live_events')
    .select((eb) => [eb.fn.min('id').as('oldest'), eb.fn.max('id').as('newest')])
    .executeTakeFirst();
  const oldest = Number(bounds?.oldest ?? 1);
  const newest = Number(bounds?.newest ?? 0);
  // Every event after `after` is still held only if none after it was pruned.
  const held = after >= 0 && after >= oldest - 1 && after <= newest;
  const rows =
    held && catalogues.length > 0
      ? await db
          .selectFrom('live_events')
          .select(['id', 'catalogue_id', 'kind', 'data'])
          .where('catalogue_id', 'in', catalogues)
          .where('id', '>', after)
          .orderBy('id')
          .limit(REPLAY_MAX + 1)
          .execute()
      : [];
  if (!held || rows.length > REPLAY_MAX) {
    send(stream, RESET_FRAME);
    return { catalogues, rows: [], after: await maxId(database) };
  }
  return { catalogues, rows: rows.map((row) => ({ ...row, id: Number(row.id) })), after };
}
