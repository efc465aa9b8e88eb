import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  // Name and description folded once at write time (lower case, accents removed), so search is
  // case- and accent-insensitive the same way on both engines: SQLite's lower() knows only ASCII.
  await db.schema
    .alterTable('products')
    .addColumn('search_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // Rows from before this migration (none outside development) get a close, ASCII-only fold.
  await sql`update products set search_key = lower(name) || ' ' || lower(description)`.execute(db);
  if (dialect === 'postgres') {
    // name_key is already folded by the app; byte order makes "sort by name" and its cursors
    // identical on both engines whatever the database's locale (SQLite compares bytes).
    await sql`alter table products alter column name_key type text collate "C"`.execute(db);
  }
}
