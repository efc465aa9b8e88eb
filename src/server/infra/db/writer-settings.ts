import { sql } from 'kysely';
import type { DB } from './handle.js';

/**
 * Runs `work` in the caller's SQLite transaction with the writing connection's page cache set to
 * `kib`, then puts back the connection's own setting (sqlite.ts), for the statements after these
 * and every later transaction. The commit writes every page left dirty in the cache to the log in
 * one go: a long bulk write that keeps few of them dirty spreads that work over its statements.
 */
export async function withWriterCache<T>(trx: DB, kib: number, work: () => Promise<T>): Promise<T> {
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(trx);
  await sql.raw(`pragma cache_size = -${Math.floor(kib)}`).execute(trx);
  try {
    return await work();
  } finally {
    await sql.raw(`pragma cache_size = ${Number(rows[0]!.cache_size)}`).execute(trx);
  }
}

/**
 * A transaction whose commit is not synced to disk (SQLite's `synchronous = normal` in WAL mode:
 * a power loss may undo it, never corrupt the file, and undoes the transactions after it too).
 * Neither a staged batch nor an applied one needs durability of its own: a staging is kept only
 * by the publish, whose synced commit makes the log durable up to it; an applied batch lost to a
 * power cut takes its staged rows' deletion with it, so the sweep applies it again. Each batch's
 * sync was half of its wall time on a busy disk.
 */
export async function unsyncedTransaction(db: DB, write: (trx: DB) => Promise<void>) {
  await db.connection().execute(async (connection) => {
    await sql`pragma synchronous = normal`.execute(connection);
    try {
      await connection.transaction().execute(write);
    } finally {
      // The connection's setting (sqlite.ts: full), for every transaction after this one.
      await sql`pragma synchronous = full`.execute(connection);
    }
  });
}
