import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from './handle.js';

/**
 * Rows a bulk write (an import) must change before PostgreSQL's statistics of its tables are
 * refreshed at once. Autovacuum refreshes them only once a tenth of a table changed, and up to a
 * minute later: until then a catalogue imported into a young database is planned as if it were
 * empty (sequential scans; the export of 100,000 products took four times as long). A thousand
 * rows is where a plan made for a handful starts to cost seconds; ANALYZE reads a sample of at
 * most 30,000 rows a table, so its own cost does not grow with the catalogue.
 */
export const ANALYZE_AFTER_ROWS = 1_000;

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
