import { sql, type Kysely } from 'kysely';

/**
 * A place that holds nothing has no stock row: every write deletes the rows it empties. An undo
 * of a count that changed nothing (a movement of 0 where the product had no row) made one at 0
 * all the same, which the location then took for stock held there: it refused to be deleted, and
 * its totals counted the product and the place. Those rows go; the totals' triggers take each
 * away as they do any delete. May run again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from stock_levels where quantity = 0`.execute(db);
}
