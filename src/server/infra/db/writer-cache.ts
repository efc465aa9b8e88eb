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
