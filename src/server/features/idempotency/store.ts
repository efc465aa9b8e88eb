import { createHash } from 'node:crypto';
import type { DB } from '../../infra/db/handle.js';

/** How long a key's answer is kept and given again. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/** An answer as it is stored and given again. */
export interface Answer {
  status: number;
  body: unknown;
}

export interface StoredAnswer extends Answer {
  fingerprint: string;
}

/** Another request with the same key committed first: this one's transaction rolled back. */
export class KeyTakenMeanwhile extends Error {
  constructor() {
    super('Idempotency-Key taken by a concurrent request');
    this.name = 'KeyTakenMeanwhile';
  }
}

/** What identifies a request under one key: method, route, product and body, hashed. */
export const fingerprintOf = (parts: unknown) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url');

const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE'
  );
};

/**
 * The answers given to writes that carried an Idempotency-Key, per owner (migration 015). An
 * answer is recorded inside the write's own transaction, by a plain INSERT on the (owner, key)
 * primary key: of two requests with one key, the second's INSERT waits for the first's commit
 * (PostgreSQL) or its whole transaction does (SQLite runs one writer at a time), then fails, so
 * its change rolls back and it gives the first one's answer instead. Exactly once, on both.
 */
export class IdempotencyStore {
  constructor(private readonly db: DB) {}

  /** The answer stored under this key, unless it expired (an expired one is deleted here). */
  async find(ownerId: string, key: string, now: number): Promise<StoredAnswer | undefined> {
    const row = await this.db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'status', 'body', 'created_at'])
      .where('owner_id', '=', ownerId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.created_at <= now - IDEMPOTENCY_TTL_MS) {
      await this.db
        .deleteFrom('idempotency_keys')
        .where('owner_id', '=', ownerId)
        .where('key', '=', key)
        .where('created_at', '<=', now - IDEMPOTENCY_TTL_MS)
        .execute();
      return undefined;
    }
    return { fingerprint: row.fingerprint, status: row.status, body: JSON.parse(row.body) };
  }

  /** Records the answer in the write's transaction; throws KeyTakenMeanwhile when it lost. */
  async record(
    trx: DB,
    entry: { ownerId: string; key: string; fingerprint: string; answer: Answer; now: number },
  ): Promise<void> {
    try {
      await trx
        .insertInto('idempotency_keys')
        .values({
          owner_id: entry.ownerId,
          key: entry.key,
          fingerprint: entry.fingerprint,
          status: entry.answer.status,
          body: JSON.stringify(entry.answer.body),
          created_at: entry.now,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new KeyTakenMeanwhile();
      throw error;
    }
  }

  /** Puts another answer under a key recorded before (its fingerprint and age stay). */
  async replace(ownerId: string, key: string, answer: Answer): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status: answer.status, body: JSON.stringify(answer.body) })
      .where('owner_id', '=', ownerId)
      .where('key', '=', key)
      .execute();
  }

  /** Deletes the answers older than 24 hours: one indexed statement, off any request's path. */
  async sweep(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<=', now - IDEMPOTENCY_TTL_MS)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
