import { sql, type Kysely, type SqlBool } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * A catalogue's totals, kept by the database, and indexes that follow the products to reorder.
 *
 * `catalogue_totals`: per catalogue, one row per part of it that the summary answers for: `all`
 * its products, `low` (stock 1 to 10), `out` (stock 0) and `reorder` (at or below their point, their
 * own or else the catalogue's). Each row holds how many products, their units, how many have a
 * cost, how many are to reorder, and Σ price × stock and Σ cost × stock, each as three integer
 * parts (16-bit halves of cents and units multiplied, see features/products/exact-sum.ts), so no
 * sum overflows on either engine and the total comes back exact.
 *
 * Triggers keep them in the transaction of every write, whoever makes it (every write path,
 * imports, undos, deletes by cascade, tools): on SQLite a trigger per row, on PostgreSQL one per
 * statement that adds up what the statement changed (its transition tables), so a bulk insert
 * updates each row once. A new catalogue gets its rows; a change of its reorder point moves the
 * products without a point of their own whose stock lies between the old point and the new.
 *
 * The rows of existing catalogues are filled after the triggers exist, in the migration's one
 * transaction (on PostgreSQL, creating the triggers locks out concurrent writes to products and
 * catalogues until the commit), so no write is counted twice or missed.
 */

/** The low threshold when this migration was written (shared/constants.ts may change it later). */
const LOW = 10;

const PARTS = `(select 'all' as part union all select 'low' union all select 'out' union all select 'reorder')`;

/** Whether the product `r` is to reorder, given its catalogue's point. */
const toReorder = (r: string, point: string) =>
  `${r}.stock <= coalesce(${r}.reorder_point, ${point})`;

/** Whether the product `r` counts in the part named by `part`. */
const inPart = (part: string, r: string, point: string) =>
  `(${part} = 'all' or (${part} = 'low' and ${r}.stock between 1 and ${LOW})` +
  ` or (${part} = 'out' and ${r}.stock = 0) or (${part} = 'reorder' and ${toReorder(r, point)}))`;

/** What one product adds to each column of a part it counts in. */
function contributions(r: string, point: string): Record<string, string> {
  const units = `${r}.stock`;
  const halves = (cents: string, name: string) => ({
    [`${name}_low`]: `(${cents} & 65535) * (${units} & 65535)`,
    [`${name}_middle`]: `(${cents} & 65535) * (${units} >> 16) + (${cents} >> 16) * (${units} & 65535)`,
    [`${name}_high`]: `(${cents} >> 16) * (${units} >> 16)`,
  });
  return {
    count: '1',
    units,
    costed: `case when ${r}.cost_cents is null then 0 else 1 end`,
    to_reorder: `case when ${toReorder(r, point)} then 1 else 0 end`,
    ...halves(`${r}.price_cents`, 'value'),
    ...halves(`coalesce(${r}.cost_cents, 0)`, 'cost'),
  };
}

const COLUMNS = Object.keys(contributions('r', '0'));

/** SQLite: adds (or takes away) one product's row to the parts of its catalogue it counts in. */
function sqliteApply(r: 'new' | 'old', sign: '+' | '-') {
  const point = `(select reorder_point from catalogues where id = ${r}.catalogue_id)`;
  const sets = Object.entries(contributions(r, point)).map(
    ([column, value]) => `${column} = ${column} ${sign} (${value})`,
  );
  return `update catalogue_totals set ${sets.join(', ')}
    where catalogue_id = ${r}.catalogue_id and ${inPart('part', r, point)};`;
}

/** PostgreSQL: adds the rows of `changed` (with a `sign`) to the parts they count in. */
function postgresApply(changed: string) {
  const sums = Object.entries(contributions('r', 'c.reorder_point')).map(
    ([column, value]) => `coalesce(sum(r.sign * (${value})), 0) as ${column}`,
  );
  const sets = COLUMNS.map((column) => `${column} = t.${column} + d.${column}`);
  return `update catalogue_totals t set ${sets.join(', ')}
    from (select r.catalogue_id, k.part, ${sums.join(', ')}
      from (${changed}) r
      join catalogues c on c.id = r.catalogue_id
      join ${PARTS} k on ${inPart('k.part', 'r', 'c.reorder_point')}
      group by r.catalogue_id, k.part) d
    where t.catalogue_id = d.catalogue_id and t.part = d.part;`;
}

const FIELDS = 'catalogue_id, stock, price_cents, cost_cents, reorder_point';
/** The product's columns the totals depend on changed (compared as values, nulls included). */
const MOVED = `(o.stock, o.price_cents, o.cost_cents, o.reorder_point)
  is distinct from (n.stock, n.price_cents, n.cost_cents, n.reorder_point)`;

/**
 * A change of a catalogue's point: the products without a point of their own whose stock lies
 * between the old point (excluded) and the new (included) enter the `reorder` part (point raised)
 * or leave it (lowered), and count as to reorder in the parts they are in, or no longer.
 */
function pointChange(dialect: MigrationDialect, id: string, from: string, to: string) {
  const [least, greatest] = dialect === 'postgres' ? ['least', 'greatest'] : ['min', 'max'];
  const sign = `(case when ${to} > ${from} then 1 else -1 end)`;
  // The table's own columns, named apart from the sums' of the same names.
  const own = (column: string) => `catalogue_totals.${column}`;
  const sums = Object.entries(contributions('p', '0'))
    .filter(([column]) => column !== 'to_reorder')
    .map(([column, value]) => `coalesce(sum(${value}), 0) as ${column}`);
  const each = COLUMNS.filter((column) => column !== 'to_reorder').map(
    (column) =>
      `${column} = ${own(column)} + case when part = 'reorder' then ${sign} * d.${column} else 0 end`,
  );
  const switched = `case part when 'low' then d.low_products when 'out' then d.out_products else d.count end`;
  return `update catalogue_totals set ${each.join(', ')},
      to_reorder = ${own('to_reorder')} + ${sign} * ${switched}
    from (select ${sums.join(', ')},
        coalesce(sum(case when p.stock between 1 and ${LOW} then 1 else 0 end), 0) as low_products,
        coalesce(sum(case when p.stock = 0 then 1 else 0 end), 0) as out_products
      from products p
      where p.catalogue_id = ${id} and p.reorder_point is null
        and p.stock > ${least}(${from}, ${to}) and p.stock <= ${greatest}(${from}, ${to})) d
    where catalogue_id = ${id};`;
}

const NEW_PARTS = (id: string) =>
  `insert into catalogue_totals (catalogue_id, part) select ${id}, part from ${PARTS} k;`;

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  let table = db.schema
    .createTable('catalogue_totals')
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('part', 'text', (c) => c.notNull());
  for (const column of COLUMNS) {
    table = table.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  }
  await table.addPrimaryKeyConstraint('catalogue_totals_pkey', ['catalogue_id', 'part']).execute();

  if (dialect === 'sqlite') {
    await sql`create trigger catalogue_totals_new_catalogue after insert on catalogues begin
      ${sql.raw(NEW_PARTS('new.id'))} end`.execute(db);
    await sql`create trigger catalogue_totals_point after update of reorder_point on catalogues
      when old.reorder_point <> new.reorder_point begin
      ${sql.raw(pointChange(dialect, 'new.id', 'old.reorder_point', 'new.reorder_point'))} end`.execute(
      db,
    );
    await sql`create trigger catalogue_totals_insert after insert on products begin
      ${sql.raw(sqliteApply('new', '+'))} end`.execute(db);
    await sql`create trigger catalogue_totals_delete after delete on products begin
      ${sql.raw(sqliteApply('old', '-'))} end`.execute(db);
    await sql`create trigger catalogue_totals_update
      after update of stock, price_cents, cost_cents, reorder_point on products
      when ${sql.raw(MOVED.replaceAll('o.', 'old.').replaceAll('n.', 'new.'))} begin
      ${sql.raw(sqliteApply('old', '-'))}
      ${sql.raw(sqliteApply('new', '+'))} end`.execute(db);
  } else {
    const fn = (name: string, body: string) =>
      sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql as $$
        begin ${sql.raw(body)} return null; end $$`.execute(db);
    await fn('catalogue_totals_new_catalogue', NEW_PARTS('new.id'));
    await sql`create trigger catalogue_totals_new_catalogue after insert on catalogues
      for each row execute function catalogue_totals_new_catalogue()`.execute(db);
    await fn(
      'catalogue_totals_point',
      pointChange(dialect, 'new.id', 'old.reorder_point', 'new.reorder_point'),
    );
    await sql`create trigger catalogue_totals_point after update of reorder_point on catalogues
      for each row when (old.reorder_point <> new.reorder_point)
      execute function catalogue_totals_point()`.execute(db);
    await fn('catalogue_totals_insert', postgresApply(`select ${FIELDS}, 1 as sign from new_rows`));
    await sql`create trigger catalogue_totals_insert after insert on products
      referencing new table as new_rows
      for each statement execute function catalogue_totals_insert()`.execute(db);
    await fn(
      'catalogue_totals_delete',
      postgresApply(`select ${FIELDS}, -1 as sign from old_rows`),
    );
    await sql`create trigger catalogue_totals_delete after delete on products
      referencing old table as old_rows
      for each statement execute function catalogue_totals_delete()`.execute(db);
    const fields = (alias: string) =>
      FIELDS.split(', ')
        .map((field) => `${alias}.${field}`)
        .join(', ');
    await fn(
      'catalogue_totals_update',
      postgresApply(`select ${fields('o')}, -1 as sign from old_rows o
          join new_rows n on n.id = o.id where ${MOVED}
        union all
        select ${fields('n')}, 1 as sign from old_rows o
          join new_rows n on n.id = o.id where ${MOVED}`),
    );
    await sql`create trigger catalogue_totals_update after update on products
      referencing old table as old_rows new table as new_rows
      for each statement execute function catalogue_totals_update()`.execute(db);
  }

  // The existing catalogues, counted once with the triggers in place.
  const sums = Object.values(contributions('r', 'c.reorder_point')).map(
    (value) => `coalesce(sum(case when r.id is null then 0 else ${value} end), 0)`,
  );
  await sql`insert into catalogue_totals (catalogue_id, part, ${sql.raw(COLUMNS.join(', '))})
    select c.id, k.part, ${sql.raw(sums.join(', '))}
    from catalogues c cross join ${sql.raw(PARTS)} k
    left join products r on r.catalogue_id = c.id
      and ${sql.raw(inPart('k.part', 'r', 'c.reorder_point'))}
    group by c.id, k.part`.execute(db);

  // The products to reorder by their own point, and those that follow the catalogue's point by
  // stock: each part of the rule is a range of its own index, as long as what it holds.
  await db.schema
    .createIndex('products_reorder_own')
    .on('products')
    .columns(['catalogue_id', 'stock'])
    .where(sql<SqlBool>`reorder_point is not null and stock <= reorder_point`)
    .execute();
  await db.schema
    .createIndex('products_reorder_default')
    .on('products')
    .columns(['catalogue_id', 'stock'])
    .where(sql<SqlBool>`reorder_point is null`)
    .execute();
}
