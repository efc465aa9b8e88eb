import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db/handle.js';
import type { MigrationDialect } from '../db/migrate.js';
import type { Clock } from '../../lib/clock.js';

/** What a user may hold a bounded number of, on every instance together. */
export type LeaseKind = 'live-stream' | 'costly-work' | 'import';

/**
 * How long a lease lasts unless its instance renews it: the time a killed instance's streams and
 * requests go on counting.
 */
export const LEASE_MS = 60_000;
/** How often an instance moves its leases forward: a few times a lease. */
export const RENEW_EVERY_MS = 20_000;
/** Ids a renewal names in one statement. */
const RENEW_CHUNK = 500;

interface LeaseDeps {
  db: DB;
  dialect: MigrationDialect;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * Per-user counts that every instance sees: a row in `user_leases` for each thing a user holds
 * open (an event stream, a costly answer, an import), deleted when it ends. An instance renews its
 * own rows while it runs; the rows of one that was killed run out after LEASE_MS and stop
 * counting. A lease this process ended counts no more at once, though its row goes a moment
 * later. The count and the insert take turns per user and kind (an advisory lock on PostgreSQL;
 * SQLite runs one write transaction at a time), so requests at once, on any instances, stop at
 * the bound.
 */
export class UserLeases {
  private readonly held = new Set<string>();
  /** Leases this process ended whose rows may not be deleted yet: they count no more. */
  private readonly ending = new Set<string>();

  constructor(private readonly deps: LeaseDeps) {}

  /**
   * A lease of `kind` for the user if fewer than `most` are held now, and the function that ends
   * it (at once for this process's next count; in the database soon after); else undefined.
   */
  async take(kind: LeaseKind, userId: string, most: number): Promise<(() => void) | undefined> {
    const { db, dialect, clock } = this.deps;
    const id = randomUUID();
    const now = clock.now();
    const taken = await db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`lease:${kind}:${userId}`}, 0))`.execute(
          trx,
        );
      }
      const ofUser = trx
        .selectFrom('user_leases')
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .where('expires_at', '>', now)
        .$if(this.ending.size > 0, (query) => query.where('id', 'not in', [...this.ending]));
      const { count } = await ofUser
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();
      if (Number(count) >= most) return false;
      await trx
        .deleteFrom('user_leases')
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .where('expires_at', '<=', now)
        .execute();
      await trx
        .insertInto('user_leases')
        .values({ id, kind, user_id: userId, expires_at: now + LEASE_MS })
        .execute();
      return true;
    });
    if (!taken) return undefined;
    this.held.add(id);
    return () => {
      if (!this.held.delete(id)) return;
      this.ending.add(id);
      db.deleteFrom('user_leases')
        .where('id', '=', id)
        .execute()
        .catch((error: unknown) =>
          this.deps.log.warn({ err: error }, 'ending a lease failed: it runs out on its own'),
        )
        .finally(() => this.ending.delete(id));
    };
  }

  /** Moves every lease this process holds forward, so that none runs out while it is held. */
  async renew(): Promise<void> {
    const ids = [...this.held];
    const until = this.deps.clock.now() + LEASE_MS;
    for (let i = 0; i < ids.length; i += RENEW_CHUNK) {
      await this.deps.db
        .updateTable('user_leases')
        .set({ expires_at: until })
        .where('id', 'in', ids.slice(i, i + RENEW_CHUNK))
        .execute();
    }
  }

  /** Ends every lease of this process (it is closing), waiting for the database. */
  async releaseAll(): Promise<void> {
    const ids = [...this.held];
    this.held.clear();
    for (let i = 0; i < ids.length; i += RENEW_CHUNK) {
      await this.deps.db
        .deleteFrom('user_leases')
        .where('id', 'in', ids.slice(i, i + RENEW_CHUNK))
        .execute();
    }
  }
}
