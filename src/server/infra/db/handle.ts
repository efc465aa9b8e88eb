import { sql, type Kysely } from 'kysely';
import type { LiveEventNotice } from './change-listener.js';
import type { MigrationDialect } from './migrate.js';
import type { Database } from './schema.js';

export type DB = Kysely<Database>;

/** An open database, whichever engine: what the app is given (see open.ts). */
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
  /**
   * PostgreSQL: hears every instance's committed live events (their ids, migration 015), or `lost`
   * after its listening connection was replaced. Absent on SQLite, whose one process reads them.
   */
  onLiveEvent?(listener: (notice: LiveEventNotice) => void): void;
  close(): Promise<void>;
}

export async function isDatabaseReachable(db: DB): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
