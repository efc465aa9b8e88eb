import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * The kept totals (migration 032) and days (migration 033) leave out the products of a pending
 * import (migration 037), as every read does: a product inserted, changed or deleted while its
 * import is pending, or a movement of it, changes no total and no catalogue day. Its own days
 * (`product_days`) are kept as before: they are the product's, read only beside the product.
 * Publishing an import adds its products to the totals and its movements to the days in one step.
 *
 * The triggers are the ones those migrations made, each with the condition added to the
 * definition the database holds (SQLite: the trigger's text; PostgreSQL: the function's body),
 * so nothing else of them changes. Each edit is checked to have found its place.
 */

/** Whether the product `r` (a row or alias) is of no pending import. */
const visible = (r: string) =>
  `(${r}.import_id is null or ${r}.import_id not in (select id from pending_imports))`;

/** `text` with `from` replaced by `to`, `count` times exactly (else the migration stops). */
function patch(text: string, from: string | RegExp, to: string, count = 1): string {
  const found = text.split(from).length - 1;
  if (found !== count) throw new Error(`039: expected ${count} of ${String(from)}, found ${found}`);
  return text.split(from).join(to);
}

const MOVEMENT_JOIN = 'join products p on p.id = m.product_id';

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect === 'sqlite') {
    const edits: Record<string, (text: string) => string> = {
      catalogue_totals_insert: (t) => patch(t, /\bbegin\b/i, `when ${visible('new')} begin`),
      catalogue_totals_delete: (t) => patch(t, /\bbegin\b/i, `when ${visible('old')} begin`),
      catalogue_totals_update: (t) => patch(t, /\bbegin\b/i, `and ${visible('new')} begin`),
      catalogue_totals_point: (t) =>
        patch(t, 'where p.catalogue_id =', `where ${visible('p')} and p.catalogue_id =`),
      stock_days_movement: (t) => patch(t, MOVEMENT_JOIN, `${MOVEMENT_JOIN} and ${visible('p')}`),
      stock_days_delete: (t) => patch(t, /\bwhere true\b/, `where ${visible('old')}`),
    };
    for (const [name, edit] of Object.entries(edits)) {
      const { rows } = await sql<{ sql: string }>`select sql from sqlite_master
        where type = 'trigger' and name = ${name}`.execute(db);
      // Edited already (the migration ran before its record was written): left as it is.
      if (rows[0]!.sql.includes('pending_imports')) continue;
      const text = edit(rows[0]!.sql);
      await sql`drop trigger ${sql.id(name)}`.execute(db);
      await sql.raw(text).execute(db);
    }
    return;
  }
  const edits: Record<string, (body: string) => string> = {
    catalogue_totals_insert: (b) =>
      patch(b, 'from new_rows)', `from new_rows where ${visible('new_rows')})`),
    catalogue_totals_delete: (b) =>
      patch(b, 'from old_rows)', `from old_rows where ${visible('old_rows')})`),
    catalogue_totals_update: (b) =>
      patch(b, 'on n.id = o.id where', `on n.id = o.id where ${visible('n')} and`, 2),
    catalogue_totals_point: (b) =>
      patch(b, 'where p.catalogue_id =', `where ${visible('p')} and p.catalogue_id =`),
    stock_days_movement: (b) => patch(b, MOVEMENT_JOIN, `${MOVEMENT_JOIN} and ${visible('p')}`),
    stock_days_delete: (b) => patch(b, /\bwhere true\b/, `where ${visible('o')}`),
  };
  for (const [name, edit] of Object.entries(edits)) {
    const { rows } = await sql<{ body: string }>`select prosrc as body from pg_proc
      where proname = ${name}`.execute(db);
    if (rows[0]!.body.includes('pending_imports')) continue;
    const body = edit(rows[0]!.body);
    await sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql
      as ${sql.raw(`$$${body}$$`)}`.execute(db);
  }
}
