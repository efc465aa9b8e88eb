import { Kysely } from 'kysely';
import pg from 'pg';
import { ChangeListener } from './change-listener.js';
import { CommittedWritesPostgresDialect } from './committed-writes.js';
import type { DatabaseHandle } from './handle.js';
import type { Database } from './schema.js';

// int8 (bigint) columns hold epoch milliseconds and cents: both far below 2^53, so numbers are exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * A PostgreSQL connection pool as a handle, and the listener of other instances' commits, which
 * the caller starts once the migrations have made its channel (migration 008).
 */
export function openPostgres(databaseUrl: string): {
  handle: DatabaseHandle;
  changes: ChangeListener;
} {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    // While the database is down, a request waits this long for a connection, then gets a 503.
    connectionTimeoutMillis: 5_000,
  });
  // A connection that dies (PostgreSQL restarted, connection terminated) emits 'error': on the
  // pool while idle, on the client itself while checked out. Without a listener either one
  // crashes the process. The query in flight rejects on its own (and becomes a 503); the pool
  // drops the broken client when it is released and opens a new one for the next query. The
  // error itself is reported (logged by the server), so an outage shows in the log.
  let report = (_error: Error) => {};
  pool.on('error', (error) => report(error));
  pool.on('connect', (client) => client.on('error', (error) => report(error)));
  // Another instance's commits arrive as notifications (migration 008); this one's are counted
  // as they commit, so its next request sees them before their notification comes back.
  const changes = new ChangeListener(databaseUrl);
  const db = new Kysely<Database>({
    dialect: new CommittedWritesPostgresDialect({ pool }, () => changes.noteCommittedWrite()),
  });
  const handle: DatabaseHandle = {
    db,
    dialect: 'postgres',
    contentVersion: () => changes.version(),
    onLiveEvent: (listener) => changes.onLiveEvent(listener),
    reportConnectionErrorsTo: (listener) => {
      report = listener;
    },
    close: async () => {
      await changes.stop();
      await db.destroy();
    },
  };
  return { handle, changes };
}
