import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';

/** A compiled statement's fixed cost beyond its text (SQLite's VDBE program and bookkeeping). */
const STATEMENT_OVERHEAD_BYTES = 4_096;

/**
 * Reuses prepared statements by their text (Kysely prepares every query anew, a large share of a
 * small query's cost); safe because Kysely runs one query at a time on the connection. Also gives
 * the content version: SQLite's `data_version` moves when another connection commits; a count of
 * this connection's writes, taken before each runs and again once it commits (a read on the other
 * connection meanwhile saw the state before), covers its own.
 */
export function statementCachingConnection(
  file: SQLite.Database,
  onCommitted: () => void = () => {},
  maxBytes = 2 * 1024 * 1024,
) {
  const statements = new LRUCache<string, SQLite.Statement>({
    maxSize: maxBytes,
    // The SQL text twice (the key, and SQLite's copy) plus the compiled program, which is a few
    // times the text: an estimate, as SQLite does not tell a statement's size.
    sizeCalculation: (_statement, sql) => sql.length * 8 + STATEMENT_OVERHEAD_BYTES,
  });
  const dataVersion = file.prepare('PRAGMA data_version').pluck();
  // Rows this connection has inserted, updated or deleted since it opened: a commit that changed
  // none (the migration check at every start) leaves nothing to checkpoint.
  const totalChanges = file.prepare('SELECT total_changes()').pluck();
  let changedRows = 0;
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
    /**
     * A write of this connection committed: reads that ran beside it must not stay current, and
     * if it changed rows, the write-ahead log has something to checkpoint.
     */
    noteCommitted() {
      ownWrites += 1;
      const changed = totalChanges.get() as number;
      if (changed === changedRows) return;
      changedRows = changed;
      onCommitted();
    },
    contentVersion: () => `${dataVersion.get() as number}:${ownWrites}`,
  } satisfies SqliteDatabase & { contentVersion(): string; noteCommitted(): void };
}
