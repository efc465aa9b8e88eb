import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * PostgreSQL: a stock level's key to its location is checked at the commit, not when the
 * statement's cascades end. A deleted catalogue cascades to its products (and their stock levels)
 * and to its locations, and PostgreSQL runs those cascades in the order their keys were made: a
 * database restored from pg_dump makes them in the order of their names, locations first, and the
 * locations' check then found the stock levels still there (every catalogue or account with stock
 * failed to delete). By the commit they are gone; a location deleted with stock still in it fails
 * there as before. Altering the key again changes nothing: instances starting together run this
 * one after the other. SQLite checks its keys once its statement is done, whatever the order.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  // Found by what it joins: a restore or an older tool may have named it otherwise.
  const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint
    where contype = 'f' and conrelid = 'stock_levels'::regclass
      and confrelid = 'locations'::regclass`.execute(db);
  for (const { name } of rows) {
    await sql`alter table stock_levels alter constraint ${sql.id(name)}
      deferrable initially deferred`.execute(db);
  }
}
