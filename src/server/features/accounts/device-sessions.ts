import { SESSIONS_LISTED, type DeviceSession } from '../../../shared/schemas/sessions.js';
import type { DB } from '../../infra/db/handle.js';
import { deviceName } from './devices/device-name.js';
import { placeOf } from './devices/place.js';

const iso = (ms: number | bigint) => new Date(Number(ms)).toISOString();

/** The account's live sessions, the most recently used first, the asking one marked. */
export async function listDeviceSessions(
  db: DB,
  userId: string,
  currentId: string,
  now: number,
): Promise<DeviceSession[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy((eb) => eb.fn.coalesce('last_seen_at', 'created_at'), 'desc')
    .orderBy('id')
    .limit(SESSIONS_LISTED)
    .execute();
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      device: deviceName(row.user_agent),
      place: await placeOf(row.ip),
      createdAt: iso(row.created_at),
      lastSeenAt: iso(row.last_seen_at ?? row.created_at),
      current: row.id === currentId,
    })),
  );
}

/** Ends one session of the account; false when it has none of that id. */
export async function endDeviceSession(db: DB, userId: string, sessionId: string) {
  const result = await db
    .deleteFrom('sessions')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
