import {
  PostgresDialect,
  PostgresDriver,
  RawNode,
  SelectQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Raw SQL that cannot change a row. Any other raw statement counts as a write: guessing wrong that
 * way costs a cache miss, the other way a stale answer.
 */
const READ_ONLY_RAW = /^\s*(select|begin|start|commit|rollback|savepoint|release|show|explain)\b/i;

/** Whether a query may change rows: inserts, updates, deletes, merges, DDL, writing CTEs, raw. */
function mayWrite(query: CompiledQuery): boolean {
  const node = query.query;
  if (SelectQueryNode.is(node)) {
    return (node.with?.expressions ?? []).some((cte) => !SelectQueryNode.is(cte.expression));
  }
  if (RawNode.is(node)) return !READ_ONLY_RAW.test(query.sql);
  return true;
}

/**
 * PostgreSQL through Kysely, telling `onCommittedWrite` each time a write of this process has
 * committed: right after a write outside a transaction returns, or after the commit of a
 * transaction that wrote. Not before: another request, on another connection, must not cache
 * what it reads before the commit under a version that the commit does not change again.
 * A write or commit that fails counts too (whether it committed is unknown).
 */
export class CommittedWritesPostgresDialect extends PostgresDialect {
  constructor(
    private readonly settings: PostgresDialectConfig,
    private readonly onCommittedWrite: () => void,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new CommittedWritesDriver(this.settings, this.onCommittedWrite);
  }
}

class CommittedWritesDriver extends PostgresDriver {
  private readonly tracked = new WeakMap<DatabaseConnection, TrackedConnection>();

  constructor(
    settings: PostgresDialectConfig,
    private readonly onCommittedWrite: () => void,
  ) {
    super(settings);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    let tracked = this.tracked.get(inner);
    if (!tracked) {
      tracked = new TrackedConnection(inner, this.onCommittedWrite);
      this.tracked.set(inner, tracked);
    }
    return tracked;
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // What super.acquireConnection gave, which is its own connection class.
    const inner = (connection as TrackedConnection).inner;
    await super.releaseConnection(inner as Parameters<PostgresDriver['releaseConnection']>[0]);
  }

  override async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    await super.beginTransaction(connection, settings);
    (connection as TrackedConnection).transaction = { wrote: false };
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const tracked = connection as TrackedConnection;
    try {
      await super.commitTransaction(connection);
    } finally {
      if (tracked.transaction?.wrote) this.onCommittedWrite();
      tracked.transaction = undefined;
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } finally {
      (connection as TrackedConnection).transaction = undefined;
    }
  }
}

class TrackedConnection implements DatabaseConnection {
  /** Set while a transaction is open on this connection. */
  transaction: { wrote: boolean } | undefined;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly onCommittedWrite: () => void,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!mayWrite(query)) return this.inner.executeQuery<R>(query);
    try {
      return await this.inner.executeQuery<R>(query);
    } finally {
      this.wrote();
    }
  }

  async *streamQuery<R>(
    query: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } finally {
      if (mayWrite(query)) this.wrote();
    }
  }

  private wrote() {
    if (this.transaction) this.transaction.wrote = true;
    else this.onCommittedWrite();
  }
}
