import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, DB } from './handle.js';
import type { MigrationDialect } from './migrate.js';

/**
 * Rows a bulk write (an import) must change before PostgreSQL's statistics of its tables are
 * refreshed at once. Autovacuum refreshes them only once a tenth of a table changed, and up to a
 * minute later: until then a catalogue imported into a young database is planned as if it were
 * empty (sequential scans; the export of 100,000 products took four times as long). A thousand
 * rows is where a plan made for a handful starts to cost seconds; ANALYZE reads a sample of at
 * most 30,000 rows a table, so its own cost does not grow with the catalogue.
 */
export const ANALYZE_AFTER_ROWS = 1_000;

/** Rows of a bulk write after which its statements are first planned again: a batch's. */
const REPLAN_FIRST_ROWS = 100;

/**
 * For a bulk write's transaction (an import): `grew(rows)` after each batch, with the rows written
 * so far. On PostgreSQL, once they reach REPLAN_FIRST_ROWS and again at each doubling, the
 * connection's cached plans are dropped (`discard plans`: no lock, a few ms), so that its next
 * statements are planned for the tables as they are then. The triggers' statements (plpgsql) are
 * planned once per connection and kept: planned while a young database's tables were analyzed
 * nearly empty, they read a table whole for each row, and each batch of a growing import read
 * more than the last (3,000 new rows: 50,000,000 rows read by sequential scans, 400,000 now).
 */
export function replanAsTablesGrow(trx: DB, dialect: MigrationDialect) {
  let next = REPLAN_FIRST_ROWS;
  return async (rows: number) => {
    if (dialect !== 'postgres' || rows < next) return;
    while (next <= rows) next *= 2;
    await sql`discard plans`.execute(trx);
  };
}

/** The tables an import writes. */
const IMPORT_TABLES = ['products', 'product_tags', 'stock_movements'] as const;

/**
 * `refresh(rows)` after a bulk write of `rows` rows: on PostgreSQL, when they are enough, ANALYZE
 * of the tables imports write, in the background (the answer does not wait), one at a time per
 * process (a refresh asked for meanwhile runs once after it). On SQLite nothing: without
 * statistics its planner picks by the indexes, which the catalogue's queries are written for.
 */
export function plannerStatistics(database: DatabaseHandle, log: FastifyBaseLogger) {
  let running: Promise<void> | undefined;
  let again = false;
  const analyze = async () => {
    do {
      again = false;
      await sql`analyze ${sql.join(IMPORT_TABLES.map((table) => sql.table(table)))}`.execute(
        database.db,
      );
    } while (again);
  };
  return {
    refresh(rows: number) {
      if (database.dialect !== 'postgres' || rows < ANALYZE_AFTER_ROWS) return;
      if (running) {
        again = true;
        return;
      }
      running = analyze()
        .catch((error: unknown) => log.warn({ err: error }, 'ANALYZE after an import failed'))
        .finally(() => (running = undefined));
    },
    /** The refresh under way, if any: what a test or a shutdown waits for. */
    settled: () => running ?? Promise.resolve(),
  };
}
