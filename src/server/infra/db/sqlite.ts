import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type Driver } from 'kysely';
import type { DatabaseHandle } from './handle.js';
import type { Database } from './schema.js';
import { statementCachingConnection } from './sqlite-connection.js';
import { SqliteCheckpoints } from './sqlite-checkpoints.js';
import { ReadWriteSqliteDriver } from './sqlite-driver.js';

/** The embedded SQLite file in dataDir (created with the directory when missing) as a handle. */
export function openSqlite(dataDir: string): DatabaseHandle {
  mkdirSync(dataDir, { recursive: true });
  const filePath = path.join(dataDir, 'stockroom.db');
  const file = new SQLite(filePath);
  // WAL lets readers run beside the writer; FULL makes every commit durable across power loss.
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = FULL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  // Checkpoints run off the event loop instead (sqlite-checkpoints.ts).
  file.pragma('wal_autocheckpoint = 0');
  // A large transaction (a re-import of 50,000 rows dirties some 270 MB of pages) stays in memory
  // where it can: each statement's undo journal (a statement that fires triggers keeps the pages it
  // changes, to undo itself alone) went to a temporary file, 1.7 GB of small writes for that
  // re-import, a quarter of its CPU; and pages evicted before the commit are written to the log
  // and read back, twice over with the default 16 MB cache, once with 64 MB. The cache is a
  // ceiling on this connection's pages, filled only as far as its writes reach; the readers and
  // the checkpointer keep the default.
  file.pragma('temp_store = memory');
  file.pragma('cache_size = -65536');
  const checkpoints = new SqliteCheckpoints(filePath);
  // A second connection for reads, so that a transaction that spans several turns of the event
  // loop (an import writing in batches) holds up other writers only, never readers.
  const readOnly = new SQLite(filePath, { readonly: true });
  readOnly.pragma('busy_timeout = 5000');
  const connection = statementCachingConnection(file, () => checkpoints.request());
  const db = new Kysely<Database>({
    dialect: new ReadWriteSqliteDialect(connection, statementCachingConnection(readOnly)),
  });
  return {
    db,
    dialect: 'sqlite',
    contentVersion: connection.contentVersion,
    // An embedded database has no connection to lose.
    reportConnectionErrorsTo: () => {},
    close: async () => {
      // The worker's connection first: the last one to close checkpoints and removes the log.
      await checkpoints.stop();
      await db.destroy();
    },
  };
}

/** SQLite's dialect, on a writing and a reading connection (sqlite-driver.ts). */
class ReadWriteSqliteDialect extends SqliteDialect {
  constructor(
    private readonly writer: ReturnType<typeof statementCachingConnection>,
    private readonly reader: ReturnType<typeof statementCachingConnection>,
  ) {
    super({ database: writer });
  }

  override createDriver(): Driver {
    return new ReadWriteSqliteDriver(this.writer, this.reader);
  }
}
