import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * The top movers of a period kept per product, so that a report reads its first rows from an index
 * instead of adding up every product's days of the period (migration 033).
 *
 * `product_windows`: per product and window (30, 90 or 365 days), the units in and out, how many
 * movements and `moved` (in + out) of its days from the window's start on, with the product's
 * name key: the index `product_windows_top` holds a catalogue's products of a window in the
 * report's order.
 *
 * `window_starts`: per catalogue and window, the first day the windows hold. A catalogue's starts
 * are made with it at day 0 (everything); the report moves a start forward to its period's first
 * day, taking the days left behind out of the windows (reports/queries.ts). The starts only move
 * forward: a period that starts before them (a clock set back) is added up from the days instead.
 *
 * Triggers on `product_days` add what each of its changes adds to a day on or after each start of
 * the product's catalogue: the windows follow the days, which follow the movements, whoever
 * writes them. As the days do, they keep a pending import's products too: a report joins their
 * products and keeps the visible ones. On PostgreSQL the trigger reads the starts `for share`, so
 * a report moving a start (`for update`) waits for the writes that read it, and they for it. A
 * product's windows go with it (foreign key); its rename carries its name key to them.
 */

const WINDOWS = [30, 90, 365];

const COLUMNS = ['units_in', 'units_out', 'moves', 'moved'];

/** On a key already there, adds what is inserted to what is kept. */
const ADD_ON_CONFLICT = `on conflict (product_id, days) do update set ${COLUMNS.map(
  (column) => `${column} = product_windows.${column} + excluded.${column}`,
).join(', ')}`;

/**
 * Adds `changes` (alias d: product_id, catalogue_id, day, units_in, units_out, moves, each a change
 * of a kept day) to the windows whose start is on or before its day. `group` sums several changes
 * of one product (PostgreSQL's statement triggers; SQLite's row triggers have one).
 */
function addToWindows(changes: string, group: boolean): string {
  const sum = (expression: string) => (group ? `sum(${expression})` : expression);
  return `insert into product_windows (product_id, days, catalogue_id, name_key, ${COLUMNS.join(', ')})
    select d.product_id, ws.days, d.catalogue_id, p.name_key, ${sum('d.units_in')},
      ${sum('d.units_out')}, ${sum('d.moves')}, ${sum('d.units_in + d.units_out')}
    from ${changes}
    join window_starts ws on ws.catalogue_id = d.catalogue_id and d.day >= ws.start_day
    join products p on p.id = d.product_id
    where true
    ${group ? 'group by d.product_id, ws.days, d.catalogue_id, p.name_key' : ''}
    ${ADD_ON_CONFLICT};`;
}

/** A row's change of a day: all of it (inserted), or new less old (updated). */
const changeOf = (n: string, o?: string) =>
  ['units_in', 'units_out', 'moves']
    .map((column) => (o ? `${n}.${column} - ${o}.${column}` : `${n}.${column}`) + ` as ${column}`)
    .join(', ');

const NEW_STARTS = (catalogue: string) =>
  `insert into window_starts (catalogue_id, days, start_day) values ${WINDOWS.map(
    (days) => `(${catalogue}, ${days}, 0)`,
  ).join(', ')}`;

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  let windows = db.schema
    .createTable('product_windows')
    .addColumn('product_id', 'text', (c) =>
      c.notNull().references('products.id').onDelete('cascade'),
    )
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('catalogue_id', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull());
  for (const column of COLUMNS) {
    windows = windows.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  }
  await windows.addPrimaryKeyConstraint('product_windows_pkey', ['product_id', 'days']).execute();
  // A catalogue's products of a window in the report's order: the first rows are the answer.
  await sql`create index product_windows_top
    on product_windows (catalogue_id, days, moved desc, name_key, product_id)`.execute(db);

  await db.schema
    .createTable('window_starts')
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('start_day', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('window_starts_pkey', ['catalogue_id', 'days'])
    .execute();

  if (dialect === 'sqlite') {
    await sql`create trigger window_starts_new_catalogue after insert on catalogues begin
      ${sql.raw(NEW_STARTS('new.id'))}; end`.execute(db);
    const row = (o?: string) =>
      `(select new.product_id as product_id, new.catalogue_id as catalogue_id, new.day as day,
        ${changeOf('new', o)}) d`;
    await sql`create trigger product_windows_day_insert after insert on product_days begin
      ${sql.raw(addToWindows(row(), false))} end`.execute(db);
    await sql`create trigger product_windows_day_update after update on product_days begin
      ${sql.raw(addToWindows(row('old'), false))} end`.execute(db);
    await sql`create trigger product_windows_rename after update of name_key on products
      when old.name_key <> new.name_key begin
      update product_windows set name_key = new.name_key where product_id = new.id; end`.execute(
      db,
    );
  } else {
    const fn = (name: string, body: string) =>
      sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql as $$
        begin ${sql.raw(body)} return null; end $$`.execute(db);
    await fn(
      'window_starts_new_catalogue',
      `insert into window_starts (catalogue_id, days, start_day)
        select n.id, w.days, 0 from new_rows n
        cross join (values ${WINDOWS.map((days) => `(${days})`).join(', ')}) w(days);`,
    );
    await sql`create trigger window_starts_new_catalogue after insert on catalogues
      referencing new table as new_rows
      for each statement execute function window_starts_new_catalogue()`.execute(db);
    // The starts of the catalogues changed, held until the commit: a report moving one waits.
    const holdStarts = (rows: string) =>
      `perform 1 from window_starts
        where catalogue_id in (select catalogue_id from ${rows})
        order by catalogue_id, days for share;`;
    await fn(
      'product_windows_day_insert',
      `${holdStarts('new_rows')}
      ${addToWindows(`(select n.product_id, n.catalogue_id, n.day, ${changeOf('n')} from new_rows n) d`, true)}`,
    );
    await sql`create trigger product_windows_day_insert after insert on product_days
      referencing new table as new_rows
      for each statement execute function product_windows_day_insert()`.execute(db);
    await fn(
      'product_windows_day_update',
      `${holdStarts('new_rows')}
      ${addToWindows(
        `(select n.product_id, n.catalogue_id, n.day, ${changeOf('n', 'o')}
          from new_rows n join old_rows o on o.product_id = n.product_id and o.day = n.day) d`,
        true,
      )}`,
    );
    await sql`create trigger product_windows_day_update after update on product_days
      referencing old table as old_rows new table as new_rows
      for each statement execute function product_windows_day_update()`.execute(db);
    await fn(
      'product_windows_rename',
      `update product_windows pw set name_key = n.name_key
        from new_rows n join old_rows o on o.id = n.id
        where pw.product_id = n.id and n.name_key <> o.name_key;`,
    );
    await sql`create trigger product_windows_rename after update on products
      referencing old table as old_rows new table as new_rows
      for each statement execute function product_windows_rename()`.execute(db);
  }

  // The existing catalogues' starts, and their products' days from day 0, with the triggers in
  // place (on PostgreSQL they lock out concurrent writes until the commit): nothing twice.
  await sql
    .raw(
      `insert into window_starts (catalogue_id, days, start_day)
    select c.id, w.days, 0 from catalogues c
    cross join (${WINDOWS.map((days) => `select ${days} as days`).join(' union all ')}) w`,
    )
    .execute(db);
  await sql.raw(addToWindows('product_days d', true)).execute(db);
}
