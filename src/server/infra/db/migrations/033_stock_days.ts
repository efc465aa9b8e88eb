import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * What the stock reports read instead of the movements: per-day sums kept by the database.
 *
 * `product_days`: per product and UTC day (whole days since the epoch) with a movement, the sum of
 * its deltas, the units in and out, and how many movements. The top movers add up a catalogue's
 * rows of the period, at most one per product and day, however many movements made them.
 *
 * `catalogue_days`: per catalogue and day, the sum of the deltas and Σ price × delta at the
 * products' prices of now (the reports value stock at today's prices), in three integer parts
 * (16-bit halves multiplied, as features/products/exact-sum.ts does), exact on both engines. The
 * stock over time reads at most a row per day of the period.
 *
 * Triggers keep them in the transaction of every write, whoever makes it: a movement recorded adds
 * to its day (restored ones too); a change of a product's price restates its days at the new
 * price (from its own rows of `product_days`); a product deleted takes its days away with it. On
 * SQLite a trigger per row, on PostgreSQL one per statement over its transition tables, so an
 * import's thousand movements update each day once.
 *
 * The existing movements are added up after the triggers exist, in the migration's one
 * transaction (on PostgreSQL, creating the triggers locks out concurrent writes to the tables
 * until the commit), so none is counted twice or missed.
 */

const DAY_MS = 86_400_000;

const PART_COLUMNS = ['value_low', 'value_middle', 'value_high'] as const;

/** cents × units in three parts, each far from overflowing when summed (either may be negative). */
function parts(cents: string, units: string): string[] {
  const [c0, c1] = [`(${cents} & 65535)`, `(${cents} >> 16)`];
  const [u0, u1] = [`(${units} & 65535)`, `(${units} >> 16)`];
  return [`${c0} * ${u0}`, `${c0} * ${u1} + ${c1} * ${u0}`, `${c1} * ${u1}`];
}

const dayOf = (at: string) => `(${at} / ${DAY_MS})`;
const unitsIn = (delta: string) => `case when ${delta} > 0 then ${delta} else 0 end`;
const unitsOut = (delta: string) => `case when ${delta} < 0 then -${delta} else 0 end`;

const PRODUCT_DAY_COLUMNS = ['units', 'units_in', 'units_out', 'moves'];
const CATALOGUE_DAY_COLUMNS = ['units', ...PART_COLUMNS];

/** On a key already there, adds what is inserted to what is kept. */
const addOnConflict = (table: string, key: string, columns: string[]) =>
  `on conflict (${key}) do update set ${columns
    .map((column) => `${column} = ${table}.${column} + excluded.${column}`)
    .join(', ')}`;

const PRODUCT_DAYS_UPSERT = addOnConflict('product_days', 'product_id, day', PRODUCT_DAY_COLUMNS);
const CATALOGUE_DAYS_UPSERT = addOnConflict(
  'catalogue_days',
  'catalogue_id, day',
  CATALOGUE_DAY_COLUMNS,
);

/**
 * Adds to (sign +) or takes from (sign -) each day of `catalogue_days` the sums of `changes`, a
 * selection with columns catalogue_id, day, units and the three parts: all of them, or the parts
 * alone (a change of price).
 */
const applyToCatalogueDays = (changes: string, sign: '+' | '-', columns: readonly string[]) =>
  `update catalogue_days set ${columns
    .map((column) => `${column} = catalogue_days.${column} ${sign} d.${column}`)
    .join(', ')}
  from (${changes}) d
  where catalogue_days.catalogue_id = d.catalogue_id and catalogue_days.day = d.day;`;

/**
 * The parts of `cents` × the units of each day of the products in `products` (their ids as
 * `id`), per catalogue and day.
 */
const daysAt = (products: string, id: string, cents: string, where = 'true') =>
  `select pd.catalogue_id, pd.day, sum(pd.units) as units, ${parts(cents, 'pd.units')
    .map((part, i) => `sum(${part}) as ${PART_COLUMNS[i]}`)
    .join(', ')}
  from ${products} join product_days pd on pd.product_id = ${id}
  where ${where}
  group by pd.catalogue_id, pd.day`;

/**
 * The movements of `moved` (alias m), added to their products' days and their catalogues' days:
 * two statements (`where true` keeps SQLite from reading ON CONFLICT as a join's ON).
 */
function addMovements(moved: string): [string, string] {
  const productDays = `insert into product_days (product_id, catalogue_id, day, ${PRODUCT_DAY_COLUMNS.join(', ')})
    select m.product_id, m.catalogue_id, ${dayOf('m.created_at')}, sum(m.delta),
      sum(${unitsIn('m.delta')}), sum(${unitsOut('m.delta')}), count(*)
    from ${moved}
    where true
    group by m.product_id, m.catalogue_id, ${dayOf('m.created_at')}
    ${PRODUCT_DAYS_UPSERT};`;
  const catalogueDays = `insert into catalogue_days (catalogue_id, day, ${CATALOGUE_DAY_COLUMNS.join(', ')})
    select m.catalogue_id, ${dayOf('m.created_at')}, sum(m.delta),
      ${parts('p.price_cents', 'm.delta')
        .map((part) => `sum(${part})`)
        .join(', ')}
    from ${moved} join products p on p.id = m.product_id
    where true
    group by m.catalogue_id, ${dayOf('m.created_at')}
    ${CATALOGUE_DAYS_UPSERT};`;
  return [productDays, catalogueDays];
}

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  let productDays = db.schema
    .createTable('product_days')
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('day', 'bigint', (c) => c.notNull());
  for (const column of PRODUCT_DAY_COLUMNS) {
    productDays = productDays.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  }
  await productDays.addPrimaryKeyConstraint('product_days_pkey', ['product_id', 'day']).execute();
  // A catalogue's days of a period, with what the top movers add up: from the index alone.
  await db.schema
    .createIndex('product_days_catalogue')
    .on('product_days')
    .columns(['catalogue_id', 'day', 'product_id', 'units_in', 'units_out'])
    .execute();

  let catalogueDays = db.schema
    .createTable('catalogue_days')
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('day', 'bigint', (c) => c.notNull());
  for (const column of CATALOGUE_DAY_COLUMNS) {
    catalogueDays = catalogueDays.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  }
  await catalogueDays
    .addPrimaryKeyConstraint('catalogue_days_pkey', ['catalogue_id', 'day'])
    .execute();

  if (dialect === 'sqlite') {
    const row = `(select new.product_id as product_id, new.catalogue_id as catalogue_id,
      new.created_at as created_at, new.delta as delta) m`;
    await sql`create trigger stock_days_movement after insert on stock_movements begin
      ${sql.raw(addMovements(row).join('\n'))} end`.execute(db);
    const price = daysAt('(select 1)', 'new.id', '(new.price_cents - old.price_cents)');
    await sql`create trigger stock_days_price after update of price_cents on products
      when old.price_cents <> new.price_cents begin
      ${sql.raw(applyToCatalogueDays(price, '+', PART_COLUMNS))} end`.execute(db);
    await sql`create trigger stock_days_delete after delete on products begin
      ${sql.raw(applyToCatalogueDays(daysAt('(select 1)', 'old.id', 'old.price_cents'), '-', CATALOGUE_DAY_COLUMNS))}
      delete from product_days where product_id = old.id; end`.execute(db);
  } else {
    const fn = (name: string, body: string) =>
      sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql as $$
        begin ${sql.raw(body)} return null; end $$`.execute(db);
    await fn('stock_days_movement', addMovements('new_rows m').join('\n'));
    await sql`create trigger stock_days_movement after insert on stock_movements
      referencing new table as new_rows
      for each statement execute function stock_days_movement()`.execute(db);
    await fn(
      'stock_days_price',
      applyToCatalogueDays(
        daysAt(
          'old_rows o join new_rows n on n.id = o.id',
          'n.id',
          '(n.price_cents - o.price_cents)',
          'o.price_cents <> n.price_cents',
        ),
        '+',
        PART_COLUMNS,
      ),
    );
    await sql`create trigger stock_days_price after update on products
      referencing old table as old_rows new table as new_rows
      for each statement execute function stock_days_price()`.execute(db);
    await fn(
      'stock_days_delete',
      `${applyToCatalogueDays(daysAt('old_rows o', 'o.id', 'o.price_cents'), '-', CATALOGUE_DAY_COLUMNS)}
      delete from product_days pd using old_rows o where pd.product_id = o.id;`,
    );
    await sql`create trigger stock_days_delete after delete on products
      referencing old table as old_rows
      for each statement execute function stock_days_delete()`.execute(db);
  }

  // The movements already recorded, added up once with the triggers in place.
  for (const statement of addMovements('stock_movements m')) await sql.raw(statement).execute(db);
}
