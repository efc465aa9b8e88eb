import { sql } from 'kysely';
import type { DatabaseHandle, DB } from '../../../infra/db/handle.js';
import type { MigrationDialect } from '../../../infra/db/migrate.js';
import { nextTurn } from '../../../lib/turns.js';

/**
 * Pages of the search index one step merges. A step costs a few milliseconds of its own plus
 * about 0.15 ms a page of long, varied text: 50 pages hold the event loop and the write lock
 * 13 ms at worst at 100,000 products as at 1,000 (100 pages: 22 ms), where a write's own share of
 * merging reached 57 ms (bench/results-search-merges.md).
 */
const MERGE_PAGES = 50;

/**
 * Steps one run does at most: 10,000 pages, far more than writes add in a second (a product of
 * the longest description writes about 6), while a run that finds the index merged stops at once.
 */
const MERGE_STEPS = 200;

/**
 * One step of merging the SQLite search index's segments (FTS5), about MERGE_PAGES, in the
 * caller's transaction. Writes no longer merge (migration 047): these steps keep the segments
 * that every search reads few. False when FTS5 found nothing to merge (fewer than 4 segments on
 * every level).
 */
async function mergeSearchIndexStep(trx: DB): Promise<boolean> {
  const changes = async () =>
    Number((await sql<{ n: number }>`select total_changes() as n`.execute(trx)).rows[0]!.n);
  const before = await changes();
  await sql`insert into product_search(product_search, rank)
    values ('merge', ${MERGE_PAGES})`.execute(trx);
  // FTS5's documented test: a merge that did no work changed fewer than two rows.
  return (await changes()) - before >= 2;
}

/**
 * What a bulk writer does after each batch that changed search keys (SQLite): writes what the
 * search index (FTS5) holds in memory for the transaction's batch, then one merge step, each in a
 * turn of its own. FTS5 writes a batch's entries at the next savepoint (each statement's), so the
 * next statement, the movements' or the next batch's, paid for them: an empty savepoint does it
 * alone. A long transaction's flushes pile up on the smallest level meanwhile (the merging job
 * waits for the write lock): at 16 FTS5 merges them inside a statement, and the levels above in
 * cascade (55-110 ms); a step a batch keeps them few. Nothing to do on PostgreSQL.
 *
 * Up to `mergeSteps` steps, each in a turn of its own, stop once there is nothing to merge: a run
 * of thousands of batches needs more than one a batch, since a step goes on with a merge under way
 * on a higher level before the smallest one, which then fills (200-330 ms a cascade).
 */
export async function flushSearchIndexTurn(
  trx: DB,
  dialect: MigrationDialect,
  mergeSteps = 1,
): Promise<void> {
  if (dialect !== 'sqlite') return;
  await nextTurn();
  await sql`savepoint search_flush`.execute(trx);
  await sql`release search_flush`.execute(trx);
  for (let step = 0; step < mergeSteps; step += 1) {
    await nextTurn();
    if (!(await mergeSearchIndexStep(trx))) break;
  }
  await nextTurn();
}

/**
 * Merges in steps, each in a transaction and a turn of its own, until there is nothing left to
 * merge or MERGE_STEPS were done. Returns the steps that merged.
 */
async function mergeSearchIndex(db: DB): Promise<number> {
  for (let step = 0; step < MERGE_STEPS; step += 1) {
    if (!(await db.transaction().execute(mergeSearchIndexStep))) return step;
    await nextTurn();
  }
  return MERGE_STEPS;
}

/**
 * The merging job's run: skipped while nothing was written since the last run ended. Even a step
 * that finds nothing to merge is a write, and a write moves the content version, which would
 * empty the caches kept under it (sessions) every run on an idle server.
 */
export function searchIndexMerges(database: DatabaseHandle): () => Promise<void> {
  let mergedAt: string | null = null;
  return async () => {
    const version = database.contentVersion();
    if (version !== null && version === mergedAt) return;
    await mergeSearchIndex(database.db);
    mergedAt = database.contentVersion();
  };
}
