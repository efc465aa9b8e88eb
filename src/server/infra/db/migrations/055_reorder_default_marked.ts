import { sql, type Kysely } from 'kysely';

/**
 * The to-reorder report's part by the catalogue's point read from the products marked to reorder
 * (`reorder_crossed_at`, kept in step with the rule by every write), not from every product
 * without a point of its own. Migration 036's index held all of those by stock, so every change of
 * a stock moved an entry, a page of its own among 100,000 products; this one holds the few that
 * are due, so a change above the point writes none of it (SQLite skips it, PostgreSQL adds no
 * entry to a partial index whose condition the new row fails). The report asks the rule of each
 * row still. A change of the catalogue's point reads its range of stock from the index of the
 * list by stock, which holds every product. Made only if missing, and the old one dropped only if
 * there: instances starting together may both run this, one after the other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists products_reorder_default_marked on products
    (catalogue_id, stock, name_key, id)
    where reorder_point is null and reorder_crossed_at is not null`.execute(db);
  await sql`drop index if exists products_reorder_default_order`.execute(db);
}
