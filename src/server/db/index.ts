import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { ChangeListener } from './change-listener.js';
import { CommittedWritesPostgresDialect } from './committed-writes.js';
import { migrate, type MigrationDialect } from './migrate.js';
import type { Database } from './schema.js';

export type { Database } from './schema.js';
export type DB = Kysely<Database>;

export interface DatabaseHandle {
  db: DB;
  dialect: MigrationDialect;
  /**
   * A value that differs from every earlier one once the database's content may have changed,
   * through this handle or through any other connection (another process included); null while
   * it cannot be told (PostgreSQL without its listening connection), so callers must read instead.
   * What is cached under a version read before a query is fresh while the version stays equal.
   * On PostgreSQL another process's change shows within 1 s (ADR 009); this handle's own at once.
   */
  contentVersion(): string | null;
  /**
   * Where lost connections are reported (PostgreSQL restarted, a connection cut): the server logs
   * them. They are not errors of any request: the query in flight rejects on its own.
   */
  reportConnectionErrorsTo(listener: (error: Error) => void): void;
  close(): Promise<void>;
}

/** A compiled statement's fixed cost beyond its text (SQLite's VDBE program and bookkeeping). */
const STATEMENT_OVERHEAD_BYTES = 4_096;

// int8 (bigint) columns hold epoch milliseconds and cents: both far below 2^53, so numbers are exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * Opens the database: PostgreSQL when a URL is given, else the embedded SQLite file in dataDir.
 * Migrations run before the handle is returned.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  let changes: ChangeListener | undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
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
    const listener = new ChangeListener(options.databaseUrl);
    changes = listener;
    const db = new Kysely<Database>({
      dialect: new CommittedWritesPostgresDialect({ pool }, () => listener.noteCommittedWrite()),
    });
    handle = {
      db,
      dialect: 'postgres',
      contentVersion: () => listener.version(),
      reportConnectionErrorsTo: (listener) => {
        report = listener;
      },
      close: async () => {
        await listener.stop();
        await db.destroy();
      },
    };
  } else {
    mkdirSync(options.dataDir, { recursive: true });
    const file = new SQLite(path.join(options.dataDir, 'stockroom.db'));
    // WAL lets readers run beside the writer; FULL makes every commit durable across power loss.
    file.pragma('journal_mode = WAL');
    file.pragma('synchronous = FULL');
    file.pragma('foreign_keys = ON');
    file.pragma('busy_timeout = 5000');
    const connection = statementCachingConnection(file);
    const db = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({ database: connection }),
    });
    handle = {
      db,
      dialect: 'sqlite',
      contentVersion: connection.contentVersion,
      // An embedded database has no connection to lose.
      reportConnectionErrorsTo: () => {},
      close: () => db.destroy(),
    };
  }
  await migrate(handle.db as unknown as Kysely<unknown>, handle.dialect);
  await changes?.start();
  return handle;
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

/**
 * Kysely prepares every query anew; compiling the SQL is a large share of a small query's cost.
 * Statements are reused by their text instead (least recently used dropped past `maxBytes`). Safe
 * because Kysely runs one query at a time on the SQLite connection.
 *
 * It also gives the content version: SQLite's `data_version` moves when another connection
 * commits, and a count of this connection's own writes, taken as each one is about to run (before
 * its commit, so a version read while a transaction is open is already a new one), covers the rest.
 */
function statementCachingConnection(file: SQLite.Database, maxBytes = 2 * 1024 * 1024) {
  const statements = new LRUCache<string, SQLite.Statement>({
    maxSize: maxBytes,
    // The SQL text twice (the key, and SQLite's copy) plus the compiled program, which is a few
    // times the text: an estimate, as SQLite does not tell a statement's size.
    sizeCalculation: (_statement, sql) => sql.length * 8 + STATEMENT_OVERHEAD_BYTES,
  });
  const dataVersion = file.prepare('PRAGMA data_version').pluck();
  let ownWrites = 0;
  return {
    close: () => file.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = file.prepare(sql);
        statements.set(sql, statement);
      }
      // `readonly`, not `reader`: an INSERT … RETURNING reads and writes.
      if (!statement.readonly) ownWrites += 1;
      return statement;
    },
    contentVersion: () => `${dataVersion.get() as number}:${ownWrites}`,
  } satisfies SqliteDatabase & { contentVersion(): string };
}

export async function isDatabaseReachable(db: DB): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
