import { sql, type Kysely } from 'kysely';

/**
 * A catalogue's stock rows by location. PostgreSQL estimates how many rows a list of locations
 * holds from every catalogue's locations: beside a large tenant, a small catalogue's warehouse
 * looked like a large share of the table and was summed by a scan of every tenant's stock. Led
 * by the catalogue, its rows are a range that the catalogue's own statistics size. The quantity
 * is last, so that a summary reads the index alone. Made only if missing: instances starting
 * together may both run this, one after the other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists stock_levels_catalogue_location on stock_levels
    (catalogue_id, location_id, product_id, quantity)`.execute(db);
}
