import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * The stock filters' conditions on the list (`stock + 0 between 1 and 10`, `stock + 0 = 0`, as
 * migration 011 froze them) are an expression PostgreSQL kept no statistics of: it guessed half a
 * percent of a catalogue passes either, and with so few rows to expect it would as soon fetch them
 * all through the filter's partial index and sort them as read the index in the list's order up
 * to a page, its choice changing from one ANALYZE to the next. Sorting every low product is a cost
 * that grows with the catalogue. With the expression's statistics it counts what passes, and a
 * page reads a page. SQLite keeps no statistics in the app: its plans are told by the query's
 * form (products/stock-filter.ts). Made only if missing: instances starting together may both
 * run this, one after the other.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create statistics if not exists products_stock_filter on (stock + 0) from products`.execute(
    db,
  );
  await sql`analyze products`.execute(db);
}
