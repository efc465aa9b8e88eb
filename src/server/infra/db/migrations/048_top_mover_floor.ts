import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * The top movers' index holds a catalogue's leading windows only, so that a movement of any
 * other product writes none of its pages.
 *
 * Migration 041's `product_windows_top` held every product's window in `moved desc` order: each
 * movement took its product's three entries out and put them back elsewhere, a page of that index
 * per window for each product a count changed among 100,000 (4,000 of a posting's 20,000 pages).
 * Now each window has a floor (`window_starts.top_floor`) and each product's window a mark
 * (`top`): every window that moved at least the floor is marked, and the index holds the marked
 * ones alone. A window's `moved` only grows between two moves of its start (which only lower it),
 * so the triggers mark a window as it reaches the floor and never unmark one; the report reads
 * the marked in order, checks that its answer's last row is at or above the floor, and raises or
 * lowers the floor (reports/queries.ts) to keep a few hundred marked. Unmarked rows are found by
 * a catalogue's index whose key never moves.
 *
 * A floor of 0 marks everything (a new catalogue's, until a report raises it). The existing
 * catalogues' floors are set here to the 200th window of each, as the report would.
 */

const COLUMNS = ['units_in', 'units_out', 'moves', 'moved'];

/** Windows kept above the floor when it is set: twice the most a report shows. */
const KEPT = 200;
/** Marked windows past which the floor rises. */
const MARKED_MAX = 800;

/** The floor of the window of the row being written. */
const FLOOR = `(select s.top_floor from window_starts s
  where s.catalogue_id = excluded.catalogue_id and s.days = excluded.days)`;

/** On a key already there, adds what is inserted to what is kept, marked once at the floor. */
const ADD_ON_CONFLICT = `on conflict (product_id, days) do update set ${COLUMNS.map(
  (column) => `${column} = product_windows.${column} + excluded.${column}`,
).join(', ')}, top = case when product_windows.top = 1
  or product_windows.moved + excluded.moved >= ${FLOOR} then 1 else 0 end`;

/**
 * Migration 041's addition of changes of days (alias d) to the windows, the windows marked: on
 * PostgreSQL with migration 046's joins by key, read per row.
 */
function addToWindows(changes: string, dialect: MigrationDialect): string {
  const group = dialect === 'postgres';
  const sum = (expression: string) => (group ? `sum(${expression})` : expression);
  const joins =
    dialect === 'postgres'
      ? `join lateral (select ws.days, ws.top_floor from window_starts ws
          where ws.catalogue_id = d.catalogue_id and ws.start_day <= d.day offset 0) ws on true
        join lateral (select p.name_key from products p where p.id = d.product_id offset 0) p on true`
      : `join window_starts ws on ws.catalogue_id = d.catalogue_id and d.day >= ws.start_day
        join products p on p.id = d.product_id`;
  const moved = sum('d.units_in + d.units_out');
  return `insert into product_windows (product_id, days, catalogue_id, name_key, ${COLUMNS.join(', ')}, top)
    select d.product_id, ws.days, d.catalogue_id, p.name_key, ${sum('d.units_in')},
      ${sum('d.units_out')}, ${sum('d.moves')}, ${moved},
      case when ${moved} >= ws.top_floor then 1 else 0 end
    from ${changes}
    ${joins}
    where true
    ${group ? 'group by d.product_id, ws.days, d.catalogue_id, p.name_key, ws.top_floor' : ''}
    ${ADD_ON_CONFLICT};`;
}

/** The marked windows of the row's catalogue and window. */
const MARKED = `from product_windows pw where pw.catalogue_id = new.catalogue_id
  and pw.days = new.days and pw.top = 1`;

/**
 * SQLite, as a window is marked: past MARKED_MAX marked, the floor rises to the KEPT-th of them
 * and those below it are unmarked, so that a catalogue whose report is never read (a new one's
 * floor is 0) keeps its index small too. Each step reads at most MARKED_MAX + 1 entries of the
 * index. PostgreSQL leaves it to the report: raising the floor there would have a write take the
 * start its report holds `for update`.
 */
const RAISE_FLOOR = `update window_starts set top_floor = max(top_floor, coalesce((select pw.moved
    ${MARKED} order by pw.moved desc, pw.name_key, pw.product_id limit 1 offset ${KEPT - 1}), 0))
  where catalogue_id = new.catalogue_id and days = new.days
    and (select count(*) from (select 1 ${MARKED} limit ${MARKED_MAX + 1})) > ${MARKED_MAX};
  update product_windows set top = 0 where catalogue_id = new.catalogue_id and days = new.days
    and top = 1 and moved < (select s.top_floor from window_starts s
      where s.catalogue_id = new.catalogue_id and s.days = new.days);`;

/** A row's change of a day: all of it (inserted), or new less old (updated). */
const changeOf = (n: string, o?: string) =>
  ['units_in', 'units_out', 'moves']
    .map((column) => (o ? `${n}.${column} - ${o}.${column}` : `${n}.${column}`) + ` as ${column}`)
    .join(', ');

/** Whether the table has the column already (the migration ran before its record was written). */
async function hasColumn(
  db: Kysely<unknown>,
  dialect: MigrationDialect,
  table: string,
  column: string,
) {
  const { rows } = await (
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from pragma_table_info(${table})`
      : sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table}`
  ).execute(db);
  return rows.some((row) => row.name === column);
}

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (!(await hasColumn(db, dialect, 'window_starts', 'top_floor'))) {
    await db.schema
      .alterTable('window_starts')
      .addColumn('top_floor', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  if (!(await hasColumn(db, dialect, 'product_windows', 'top'))) {
    await db.schema
      .alterTable('product_windows')
      .addColumn('top', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  }

  if (dialect === 'sqlite') {
    const row = (o?: string) =>
      `(select new.product_id as product_id, new.catalogue_id as catalogue_id, new.day as day,
        ${changeOf('new', o)}) d`;
    await sql`drop trigger if exists product_windows_day_insert`.execute(db);
    await sql`drop trigger if exists product_windows_day_update`.execute(db);
    await sql`create trigger product_windows_day_insert after insert on product_days begin
      ${sql.raw(addToWindows(row(), dialect))} end`.execute(db);
    await sql`create trigger product_windows_day_update after update on product_days begin
      ${sql.raw(addToWindows(row('old'), dialect))} end`.execute(db);
    await sql`drop trigger if exists product_windows_marked_insert`.execute(db);
    await sql`drop trigger if exists product_windows_marked_update`.execute(db);
    await sql`create trigger product_windows_marked_insert after insert on product_windows
      when new.top = 1 begin ${sql.raw(RAISE_FLOOR)} end`.execute(db);
    await sql`create trigger product_windows_marked_update after update of top on product_windows
      when old.top = 0 and new.top = 1 begin ${sql.raw(RAISE_FLOOR)} end`.execute(db);
  } else {
    const holdStarts = `perform 1 from window_starts
      where catalogue_id in (select catalogue_id from new_rows)
      order by catalogue_id, days for share;`;
    const fn = (name: string, body: string) =>
      sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql as $$
        begin ${sql.raw(body)} return null; end $$`.execute(db);
    await fn(
      'product_windows_day_insert',
      `${holdStarts}
      ${addToWindows(`(select n.product_id, n.catalogue_id, n.day, ${changeOf('n')} from new_rows n) d`, dialect)}`,
    );
    await fn(
      'product_windows_day_update',
      `${holdStarts}
      ${addToWindows(
        `(select n.product_id, n.catalogue_id, n.day, ${changeOf('n', 'o')}
          from new_rows n join old_rows o on o.product_id = n.product_id and o.day = n.day) d`,
        dialect,
      )}`,
    );
  }

  // Each catalogue's floors, from the old index while it is there: then the marks.
  await sql`update window_starts set top_floor = coalesce((select pw.moved from product_windows pw
      where pw.catalogue_id = window_starts.catalogue_id and pw.days = window_starts.days
      order by pw.moved desc limit 1 offset ${sql.lit(KEPT - 1)}), 0)`.execute(db);
  await sql`update product_windows set top = case when moved >= (select ws.top_floor
      from window_starts ws
      where ws.catalogue_id = product_windows.catalogue_id and ws.days = product_windows.days)
    then 1 else 0 end`.execute(db);
  await sql`drop index if exists product_windows_top`.execute(db);
  await sql`drop index if exists product_windows_catalogue`.execute(db);
  // As migration 041's, with the marked windows alone: the report's condition, word for word.
  await sql`create index product_windows_top
    on product_windows (catalogue_id, days, moved desc, name_key, product_id) where top = 1`.execute(
    db,
  );
  // A catalogue's windows by a key no movement changes: the start's move, the floor's.
  await sql`create index product_windows_catalogue
    on product_windows (catalogue_id, days, product_id)`.execute(db);
}
