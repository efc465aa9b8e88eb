import { randomUUID } from 'node:crypto';
import { TOKEN_TTL_DAYS } from '../../shared/constants.js';
import type { DB } from '../db/index.js';
import type { UsersTable } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { randomToken, sha256 } from '../lib/secrets.js';

const TOKEN_TTL_MS = TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000;

/** Opaque bearer tokens backed by a row each: revocable one by one or all at once. */
export async function createSession(db: DB, clock: Clock, userId: string): Promise<string> {
  const token = randomToken();
  const now = clock.now();
  await db
    .insertInto('sessions')
    .values({
      id: randomUUID(),
      user_id: userId,
      token_hash: sha256(token),
      created_at: now,
      expires_at: now + TOKEN_TTL_MS,
    })
    .execute();
  return token;
}

export interface SessionUser {
  sessionId: string;
  /** The user's catalogue version as this request found it: the key to cached product pages. */
  catalogueVersion: number;
  user: Pick<UsersTable, 'id' | 'name' | 'email' | 'password_hash'>;
}

export async function findSessionUser(
  db: DB,
  clock: Clock,
  token: string,
): Promise<SessionUser | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as sessionId',
      'sessions.expires_at as expiresAt',
      'users.id',
      'users.name',
      'users.email',
      'users.password_hash',
      'users.catalogue_version as catalogueVersion',
    ])
    .where('sessions.token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!row || row.expiresAt <= clock.now()) return undefined;
  const { sessionId, catalogueVersion, expiresAt: _expiresAt, ...user } = row;
  return { sessionId, catalogueVersion: Number(catalogueVersion), user };
}

export async function revokeSession(db: DB, sessionId: string) {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Revokes every token of a user, or all but one (a password change keeps the caller signed in). */
export async function revokeUserSessions(db: DB, userId: string, exceptSessionId?: string) {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}
