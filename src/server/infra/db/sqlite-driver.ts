import {
  CompiledQuery,
  SelectQueryNode,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { statementCachingConnection } from './sqlite-connection.js';

type Connection = ReturnType<typeof statementCachingConnection>;

/** A pragma sets or reads the connection's own settings (`busy_timeout = …` returns a row too). */
const PRAGMA = /^\s*pragma\b/i;
/**
 * A pragma that changes how the writer's commits are synced: it takes the writer first, so that
 * it applies to the holder's own transactions only, never to another's that holds the writer.
 */
const SYNC_PRAGMA = /^\s*pragma\s+synchronous\s*=/i;

/** One holder of the writing connection at a time, in the order they asked. */
class WriterLock {
  private tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise((resolve) => (release = resolve));
    await previous;
    return release;
  }
}

/**
 * Kysely over two connections to one SQLite file in WAL mode: one that writes, and one that only
 * reads. A read outside a transaction runs on the reading connection at once, on the last
 * committed state, even while a transaction holds the writing connection over several turns of
 * the event loop (a large import writing in batches): other users' reads never wait for it.
 * Transactions and writes take the writing connection in turn, waiting without blocking the event
 * loop. A connection Kysely asks for is bound to the writer by its first write or its BEGIN, and
 * stays bound until released, so a transaction reads its own writes.
 */
export class ReadWriteSqliteDriver implements Driver {
  private readonly lock = new WriterLock();

  constructor(
    private readonly writer: Connection,
    private readonly reader: Connection,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.writer, this.reader, this.lock);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // BEGIN IMMEDIATE takes the file's write lock up front: a transaction that read first, then
    // found another process writing, could not wait for it (SQLITE_BUSY at once); this one waits
    // its turn under the busy timeout.
    await (connection as RoutedConnection).bindToWriter();
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).release();
  }

  async destroy(): Promise<void> {
    this.reader.close();
    this.writer.close();
  }
}

class RoutedConnection implements DatabaseConnection {
  private releaseWriter: (() => void) | undefined;

  constructor(
    private readonly writer: Connection,
    private readonly reader: Connection,
    private readonly lock: WriterLock,
  ) {}

  async bindToWriter(): Promise<void> {
    this.releaseWriter ??= await this.lock.acquire();
  }

  /**
   * Gives the writer back. What a write changed counts as a change once more now that it has
   * committed: a read on the other connection while it was open saw the state before it.
   */
  release() {
    if (!this.releaseWriter) return;
    this.writer.noteCommitted();
    this.releaseWriter();
    this.releaseWriter = undefined;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiledQuery;
    if (SYNC_PRAGMA.test(sql)) await this.bindToWriter();
    if (!this.releaseWriter && !PRAGMA.test(sql)) {
      // A statement that returns rows and changes nothing (BEGIN is "read-only" too, but returns
      // no rows) runs on the reader.
      const statement = this.reader.prepare(sql);
      if (statement.reader && statement.readonly) {
        return { rows: statement.all(parameters as unknown[]) as R[] };
      }
      await this.bindToWriter();
    }
    const statement = this.writer.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters as unknown[]) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters as unknown[]);
    return {
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // An iterator keeps its connection busy until it ends: on the writer, held like a transaction.
    if (!SelectQueryNode.is(compiledQuery.query)) {
      throw new Error('Only select queries can be streamed from SQLite');
    }
    await this.bindToWriter();
    const statement = this.writer.prepare(compiledQuery.sql);
    for (const row of statement.iterate(compiledQuery.parameters as unknown[])) {
      yield { rows: [row as R] };
    }
  }
}
