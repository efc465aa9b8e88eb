import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * A change of a catalogue's point moves its locations' totals in the app, a range of products at
 * a time (features/products/point-change.ts), not in this trigger of migration 061: as one
 * statement it held SQLite's event loop for 0.5 s at 100,000 products. May run again.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`drop trigger if exists location_totals_point`.execute(db);
    return;
  }
  await sql`drop trigger if exists location_totals_point on catalogues`.execute(db);
  await sql`drop function if exists location_totals_point()`.execute(db);
}
