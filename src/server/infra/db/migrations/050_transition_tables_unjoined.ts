import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * PostgreSQL only: the two statement triggers that joined a statement's old rows to its new ones
 * (migration 032's totals on an update of products, migration 041's windows on an update of
 * days) add up the old rows, negated, and the new ones instead, each table read once.
 *
 * PL/pgSQL keeps the plan of a trigger's statement from the connection's first call, sized by the
 * rows its transition tables had then, and transition tables have no index: after a one-row
 * statement, the join was a nested loop that read the new rows once per old row. A later
 * statement of n rows read n² of them: 1,000,000 for a count posting's 1,000 movements (their
 * last-moved times update 1,000 products), 10^10 for an update of 100,000 stocks. Adding
 * up needs no pairing: a row whose columns the totals follow did not change adds as much as it
 * takes away, and a day's key never changes. The totals skip a catalogue's parts that nothing
 * changed, as the join's condition made them: an update that changes no stock writes no totals.
 * A product's import never changes, so its old row and its new one are both counted or neither.
 *
 * Each function's body is the one the database holds with its join replaced, each replacement
 * checked to have found its place; a body already changed (the migration ran before its record
 * was written) is left as it is. Replaced in the migration's transaction, under the migrations'
 * lock. SQLite's row triggers read one row each: nothing to change there.
 */

/** `text` with its occurrences of `from` replaced by `to`'s, in order: as many as `to` has. */
function patch(text: string, from: string, ...to: string[]): string {
  const parts = text.split(from);
  if (parts.length - 1 !== to.length) {
    throw new Error(`050: expected ${to.length} of ${from}, found ${parts.length - 1}`);
  }
  return parts.reduce((done, part, i) => done + to[i - 1]! + part);
}

/** Whether the product `r` is of no pending import (migration 039's condition). */
const VISIBLE = (r: string) =>
  `(${r}.import_id is null or ${r}.import_id not in (select id from pending_imports))`;

/** Each half of the totals' union as migrations 032 and 039 wrote it: old rows paired to new. */
const PAIRED = `join new_rows n on n.id = o.id where ${VISIBLE('n')} and (o.stock, o.price_cents, o.cost_cents, o.reorder_point) is distinct from (n.stock, n.price_cents, n.cost_cents, n.reorder_point)`;

/** The columns of `catalogue_totals` the trigger adds to. */
const TOTALS = [
  'count',
  'units',
  'costed',
  'to_reorder',
  ...['value', 'cost'].flatMap((name) => ['low', 'middle', 'high'].map((h) => `${name}_${h}`)),
];

const EDITS: Record<string, (body: string) => string> = {
  catalogue_totals_update: (body) =>
    patch(
      patch(
        body,
        `from old_rows o ${PAIRED}`,
        `from old_rows o where ${VISIBLE('o')}`,
        `from new_rows n where ${VISIBLE('n')}`,
      ),
      'where t.catalogue_id = d.catalogue_id and t.part = d.part',
      `where t.catalogue_id = d.catalogue_id and t.part = d.part
        and (${TOTALS.map((total) => `d.${total}`).join(', ')}) <> (${TOTALS.map(() => '0').join(', ')})`,
    ),
  product_windows_day_update: (body) =>
    patch(
      body,
      '(select n.product_id, n.catalogue_id, n.day, n.units_in - o.units_in as units_in, n.units_out - o.units_out as units_out, n.moves - o.moves as moves from new_rows n join old_rows o on o.product_id = n.product_id and o.day = n.day) d',
      `(select product_id, catalogue_id, day, sum(units_in) as units_in,
          sum(units_out) as units_out, sum(moves) as moves
        from (select n.product_id, n.catalogue_id, n.day, n.units_in, n.units_out, n.moves
            from new_rows n
          union all
          select o.product_id, o.catalogue_id, o.day, -o.units_in, -o.units_out, -o.moves
            from old_rows o) r
        group by product_id, catalogue_id, day) d`,
    ),
};

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const [name, edit] of Object.entries(EDITS)) {
    const { rows } = await sql<{ body: string }>`select prosrc as body from pg_proc
      where proname = ${name}`.execute(db);
    // The bodies as written, each run of white space one space: the replacements' text.
    const body = rows[0]!.body.replace(/\s+/g, ' ');
    if (!/join (old|new)_rows/.test(body)) continue;
    await sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql
      as ${sql.raw(`$$${edit(body)}$$`)}`.execute(db);
  }
}
