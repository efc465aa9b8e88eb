import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { TOKEN_TTL_DAYS } from '../../../shared/constants.js';
import type { DatabaseHandle, DB } from '../../infra/db/handle.js';
import type { UsersTable } from '../../infra/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken, sha256 } from '../../lib/secrets.js';

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
  user: Pick<UsersTable, 'id' | 'name' | 'email'>;
}

interface CachedSession {
  contentVersion: string;
  expiresAt: number;
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

  constructor(
    private readonly database: DatabaseHandle,
    private readonly clock: Clock,
    maxBytes = 4 * 1024 * 1024,
  ) {
    this.cache = new LRUCache({ maxSize: maxBytes, sizeCalculation: sessionBytes });
  }

  /** Bytes the kept sessions take, keys included. */
  get size(): number {
    return this.cache.calculatedSize;
  }

  async find(token: string): Promise<SessionUser | undefined> {
    const contentVersion = this.database.contentVersion();
    if (contentVersion === null) {
      // Changes may go unseen meanwhile: nothing kept so far can be trusted again.
      this.cache.clear();
      return (await this.read(token))?.session;
    }

    const cached = this.cache.get(token);
    if (cached?.contentVersion === contentVersion) {
      return cached.expiresAt > this.clock.now() ? cached.session : undefined;
    }
    const found = await this.read(token);
    if (!found) {
      this.cache.delete(token);
      return undefined;
    }
    // Keyed by the token itself, which saves hashing it on every hit; the map never leaves memory.
    this.cache.set(token, { contentVersion, ...found });
    return found.session;
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
        'users.id',
        'users.name',
        'users.email',
        'catalogues.version as catalogueVersion',
      ])
      .where('sessions.token_hash', '=', sha256(token))
      .executeTakeFirst();
    if (!row || row.expiresAt <= this.clock.now()) return undefined;
    const { sessionId, catalogueVersion, expiresAt, id, name, email } = row;
    const session: SessionUser = Object.freeze({
      sessionId,
      catalogueVersion: Number(catalogueVersion),
      user: Object.freeze({ id, name, email }),
    });
    return { expiresAt: Number(expiresAt), session };
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
