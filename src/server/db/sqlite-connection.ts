import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';

/** A compiled statement's fixed cost beyond its text (SQLite's VDBE program and bookkeeping). */
const STATEMENT_OVERHEAD_BYTES = 4_096;

/**
 * Kysely prepares every query anew; compiling the SQL is a large share of a small query's cost.
 * Statements are reused by their text instead (least recently used dropped past `maxBytes`). Safe
 * because Kysely runs one query at a time on the SQLite connection.
 *
 * It also gives the content version: SQLite's `data_version` moves when another connection
 * commits, and a count of this connection's own writes, taken as each one is about to run (before
 * its commit, so a version read while a transaction is open is already a new one) and once more
 * after it (noteCommitted: a read on another connection meanwhile saw the state before), covers
 * the rest.
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
    /** A write of this connection committed: reads that ran beside it must not stay current. */
    noteCommitted() {
      ownWrites += 1;
      onCommitted();
    },
    contentVersion: () => `${dataVersion.get() as number}:${ownWrites}`,
  } satisfies SqliteDatabase & { contentVersion(): string; noteCommitted(): void };
}
