import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * PostgreSQL only: the statement triggers of the movements (migration 033's catalogue days,
 * migration 042's `last_moved_at`) and of the days (migration 041's top movers' windows) find
 * each row's product and its catalogue's window starts by key, whatever plan they keep.
 *
 * PL/pgSQL plans a statement that reads a transition table once per connection, with as many
 * rows as that table had at its first call, and keeps the plan for every later call. After a
 * first statement of 1,000 movements (a count posted, an import), the catalogue's days joined the
 * movements to products in a hash of every product of every catalogue, and each later movement
 * statement on that connection did it again, a stock change of one product too: its cost grew
 * with everything the server holds. A lateral subquery the planner may not flatten (`offset 0`)
 * is read per row, down the key, and ids given as an array are a condition on products' key: no
 * row estimate turns either into a scan of a whole table.
 *
 * Each function's body is the one the database holds with its joins replaced, each replacement
 * checked to have found its place; a body already changed (the migration ran before its record
 * was written) is left as it is. The functions are replaced in the migration's transaction, under
 * the migrations' lock. SQLite's row triggers read one row each: nothing to change there.
 */

/** `text` with `from` replaced by `to`, exactly once (else the migration stops). */
function patch(text: string, from: string, to: string): string {
  const found = text.split(from).length - 1;
  if (found !== 1) throw new Error(`046: expected 1 of ${from}, found ${found}`);
  return text.replace(from, to);
}

/** A join to one row of a table by key, read per row of the statement's rows. */
const byKey = (alias: string, select: string, where: string) =>
  `join lateral (select ${select} where ${where} offset 0) ${alias} on true`;

const VISIBLE = `(p.import_id is null or p.import_id not in (select id from pending_imports))`;

const WINDOWS = (body: string) =>
  patch(
    patch(
      body,
      'join window_starts ws on ws.catalogue_id = d.catalogue_id and d.day >= ws.start_day',
      byKey(
        'ws',
        'ws.days from window_starts ws',
        'ws.catalogue_id = d.catalogue_id and ws.start_day <= d.day',
      ),
    ),
    'join products p on p.id = d.product_id',
    byKey('p', 'p.name_key from products p', 'p.id = d.product_id'),
  );

const EDITS: Record<string, (body: string) => string> = {
  stock_days_movement: (body) =>
    patch(
      body,
      `join products p on p.id = m.product_id and ${VISIBLE}`,
      byKey('p', 'p.price_cents from products p', `p.id = m.product_id and ${VISIBLE}`),
    ),
  product_windows_day_insert: WINDOWS,
  product_windows_day_update: WINDOWS,
  // An update's own table cannot be read through a lateral subquery: its ids as an array can.
  products_last_moved: (body) =>
    patch(
      body,
      'where p.id = m.product_id and',
      'where p.id = any(array(select product_id from new_rows)) and p.id = m.product_id and',
    ),
};

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const [name, edit] of Object.entries(EDITS)) {
    const { rows } = await sql<{ body: string }>`select prosrc as body from pg_proc
      where proname = ${name}`.execute(db);
    if (/join lateral|= any\(array/.test(rows[0]!.body)) continue;
    const body = edit(rows[0]!.body);
    await sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql
      as ${sql.raw(`$$${body}$$`)}`.execute(db);
  }
}
