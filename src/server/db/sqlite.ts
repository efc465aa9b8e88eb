import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import type { DatabaseHandle } from './handle.js';
import type { Database } from './schema.js';
import { statementCachingConnection } from './sqlite-connection.js';

/** The embedded SQLite file in dataDir (created with the directory when missing) as a handle. */
export function openSqlite(dataDir: string): DatabaseHandle {
  mkdirSync(dataDir, { recursive: true });
  const file = new SQLite(path.join(dataDir, 'stockroom.db'));
  // WAL lets readers run beside the writer; FULL makes every commit durable across power loss.
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = FULL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const connection = statementCachingConnection(file);
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: connection }),
  });
  return {
    db,
    dialect: 'sqlite',
    contentVersion: connection.contentVersion,
    // An embedded database has no connection to lose.
    reportConnectionErrorsTo: () => {},
    close: () => db.destroy(),
  };
}

/**
 * Transactions take SQLite's write lock when they begin (BEGIN IMMEDIATE). A plain BEGIN takes it
 * at the first write, and a transaction that read first then finds another process writing cannot
 * wait for it (SQLite answers SQLITE_BUSY at once to avoid a deadlock); one that asks up front
 * waits its turn under the busy timeout instead. Within one process Kysely runs one transaction at
 * a time anyway, so this costs nothing there.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
    })(this.settings);
  }
}
