import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { TOKEN_TTL_DAYS } from '../../../shared/constants.js';
import type { DatabaseHandle, DB } from '../../infra/db/handle.js';
import type { UsersTable } from '../../infra/db/schema-accounts.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken, sha256 } from '../../lib/secrets.js';
import { USER_AGENT_MAX } from './devices/device-name.js';

const TOKEN_TTL_MS = TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000;

/**
 * A session's last use is written at most this often: each write makes every instance read its
 * sessions again, so a write per request would undo the cache.
 */
const LAST_SEEN_STEP_MS = 5 * 60 * 1000;

/** Where a sign-in came from: what the account's list of sessions shows. */
export interface SessionDevice {
  userAgent: string | null;
  ip: string;
}

/** The device of a request. */
export const deviceOf = (request: FastifyRequest): SessionDevice => ({
  userAgent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX) || null,
  ip: request.ip,
});

/** Opaque bearer tokens backed by a row each: revocable one by one or all at once. */
export async function createSession(
  db: DB,
  clock: Clock,
  userId: string,
  device?: SessionDevice,
): Promise<string> {
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
      user_agent: device?.userAgent ?? null,
      ip: device?.ip ?? null,
      last_seen_at: now,
    })
    .execute();
  return token;
}

export interface SessionUser {
  sessionId: string;
  /** The user's catalogue version as this request found it: the key to cached product pages. */
  catalogueVersion: number;
  user: Pick<UsersTable, 'id' | 'name' | 'email'>;
}

interface CachedSession {
  contentVersion: string;
  expiresAt: number;
  lastSeenAt: number;
  session: SessionUser;
}

/** The bookkeeping of an entry beyond its strings (objects, numbers, the cache's own links). */
const ENTRY_OVERHEAD_BYTES = 300;

/** Strings take two bytes a character in memory (at most): the token key, the id, name and e-mail. */
const sessionBytes = ({ session: { user, sessionId } }: CachedSession, token: string) =>
  2 * (token.length + sessionId.length + user.id.length + user.name.length + user.email.length) +
  ENTRY_OVERHEAD_BYTES;

/**
 * Finds the user behind a bearer token. Every authenticated request asks, so the answer is kept
 * while the database's content version says nothing has changed (ADR 006, 009): a logout, a
 * password reset or a product write makes the next request read again, at once when made through
 * this process, and within 1 s when made through another (at once on SQLite). Without a version
 * (PostgreSQL while its change listener is away) every request reads. Only found sessions are
 * kept, a bounded number of them, so unknown tokens cannot fill the memory.
 */
export class SessionLookup {
  private readonly cache: LRUCache<string, CachedSession>;
  /** Sessions whose last use is being written: one write at a time each. */
  private readonly touching = new Set<string>();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly clock: Clock,
    maxBytes = 4 * 1024 * 1024,
    /** Told when a last use could not be written: the request goes on all the same. */
    private readonly warn: (error: unknown) => void = () => {},
  ) {
    this.cache = new LRUCache({ maxSize: maxBytes, sizeCalculation: sessionBytes });
  }

  /** Bytes the kept sessions take, keys included. */
  get size(): number {
    return this.cache.calculatedSize;
  }

  /**
   * The session of a token. With the request's address, a session last seen more than a few
   * minutes ago is marked seen now, from there, before the answer.
   */
  async find(token: string, ip?: string): Promise<SessionUser | undefined> {
    const found = await this.lookUp(token);
    if (!found) return undefined;
    if (ip !== undefined) await this.touch(found, ip);
    return found.session;
  }

  private async lookUp(token: string) {
    const contentVersion = this.database.contentVersion();
    if (contentVersion === null) {
      // Changes may go unseen meanwhile: nothing kept so far can be trusted again.
      this.cache.clear();
      return this.read(token);
    }

    const cached = this.cache.get(token);
    if (cached?.contentVersion === contentVersion) {
      return cached.expiresAt > this.clock.now() ? cached : undefined;
    }
    const found = await this.read(token);
    if (!found) {
      this.cache.delete(token);
      return undefined;
    }
    // Keyed by the token itself, which saves hashing it on every hit; the map never leaves memory.
    const entry = { contentVersion, ...found };
    this.cache.set(token, entry);
    return entry;
  }

  private async touch(found: { lastSeenAt: number; session: SessionUser }, ip: string) {
    const now = this.clock.now();
    const { sessionId } = found.session;
    if (now - found.lastSeenAt < LAST_SEEN_STEP_MS || this.touching.has(sessionId)) return;
    this.touching.add(sessionId);
    try {
      await this.database.db
        .updateTable('sessions')
        .set({ last_seen_at: now, ip })
        .where('id', '=', sessionId)
        .execute();
      found.lastSeenAt = now;
    } catch (error) {
      this.warn(error);
    } finally {
      this.touching.delete(sessionId);
    }
  }

  private async read(token: string) {
    const row = await this.database.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      // The personal catalogue's id is the user's: its version keys the personal routes' cache.
      .innerJoin('catalogues', 'catalogues.id', 'sessions.user_id')
      .select([
        'sessions.id as sessionId',
        'sessions.expires_at as expiresAt',
        'sessions.created_at as createdAt',
        'sessions.last_seen_at as lastSeenAt',
        'users.id',
        'users.name',
        'users.email',
        'catalogues.version as catalogueVersion',
      ])
      .where('sessions.token_hash', '=', sha256(token))
      .executeTakeFirst();
    if (!row || row.expiresAt <= this.clock.now()) return undefined;
    const { sessionId, catalogueVersion, expiresAt, createdAt, lastSeenAt, id, name, email } = row;
    const session: SessionUser = Object.freeze({
      sessionId,
      catalogueVersion: Number(catalogueVersion),
      user: Object.freeze({ id, name, email }),
    });
    return { expiresAt: Number(expiresAt), lastSeenAt: Number(lastSeenAt ?? createdAt), session };
  }
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
