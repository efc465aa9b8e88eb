import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';
import {
  aboveStock,
  applyHoldings,
  flags,
  halves,
  LOCATION_DELETE,
  locationInsert,
  locationMove,
  PARTS,
  POINT,
  pointRows,
  productExists,
  productInPart,
  productRow,
  productsToTotals,
  productVisible,
  statementHoldings,
  stockHoldings,
  TOTALS,
  visible,
  type WithPlaces,
} from './061_location_totals_sql.js';

/**
 * A location's summary kept by the database (ADR 046): what a location and those under it hold,
 * per part (`all`, `low`, `out`, `reorder`), read as one row by key instead of summing the stock
 * rows of its subtree. The tables and rules are in 061_location_totals_sql.ts.
 *
 * Triggers keep them in the transaction of every write. SQLite: a trigger per row. PostgreSQL:
 * per statement over the transition tables for stock rows and products (a posting of 10,000
 * lines fires each once), per row for catalogues and locations (rare). An import's publish adds
 * its products in the app (features/products/staged-imports.ts), summed from the rows it staged,
 * as it does for the catalogue's totals: no trigger adds up 50,000 products in one statement.
 *
 * Made again from scratch if the migration runs a second time; the fill runs after the triggers
 * exist, in the migrations' one transaction under their lock, so no write lands between them.
 */

/** Each trigger and its table. */
export const TRIGGERS: [string, string][] = [
  ['location_totals_stock_insert', 'stock_levels'],
  ['location_totals_stock_staged', 'stock_levels'],
  ['location_totals_stock_update', 'stock_levels'],
  ['location_totals_stock_moved', 'stock_levels'],
  ['location_totals_stock_delete', 'stock_levels'],
  ['location_totals_product_update', 'products'],
  ['location_totals_product_delete', 'products'],
  ['location_totals_point', 'catalogues'],
  ['location_totals_location_insert', 'locations'],
  ['location_totals_location_move', 'locations'],
  ['location_totals_location_delete', 'locations'],
];

/**
 * What a build of the triggers keeps: `places` too (migration 066), and the trigger of the
 * catalogue's point (dropped by migration 065, whose app code moves those totals).
 */
export interface TriggerSet {
  places: WithPlaces;
  point: boolean;
}

const AS_WRITTEN: TriggerSet = { places: false, point: true };

export async function sqliteTriggers(db: Kysely<unknown>, { places, point }: TriggerSet) {
  const trigger = (name: string, on: string, body: string) =>
    sql.raw(`create trigger ${name} ${on} begin ${body} end`).execute(db);
  await trigger(
    'location_totals_stock_insert',
    `after insert on stock_levels when ${productVisible('new', true)}`,
    applyHoldings('sqlite', stockHoldings('new', 1), aboveStock('new'), true, places),
  );
  // A staged import's row (its product pending): its holdings alone, no total to change.
  await trigger(
    'location_totals_stock_staged',
    `after insert on stock_levels when ${productVisible('new', false)}`,
    applyHoldings('sqlite', stockHoldings('new', 1), aboveStock('new'), false),
  );
  // A quantity changed in place (a transfer's or a posting's usual row): the units and their
  // value added to the parts the product is in, at its location and those above it.
  const delta = '(new.quantity - old.quantity)';
  const [v0, v1, v2] = halves('p.price_cents', delta);
  const [c0, c1, c2] = halves('coalesce(p.cost_cents, 0)', delta);
  await trigger(
    'location_totals_stock_update',
    `after update of quantity on stock_levels
      when new.product_id = old.product_id and new.location_id = old.location_id
        and new.quantity <> old.quantity and ${productExists('new')}`,
    `update location_totals set units = units + ${delta},
        value_low = value_low + d.v0, value_middle = value_middle + d.v1,
        value_high = value_high + d.v2, cost_low = cost_low + d.c0,
        cost_middle = cost_middle + d.c1, cost_high = cost_high + d.c2
      from (select k.part, ${v0} as v0, ${v1} as v1, ${v2} as v2, ${c0} as c0, ${c1} as c1,
          ${c2} as c2
        from products p join ${PARTS} k on ${productInPart('k.part', 'p', POINT)}
        where p.id = new.product_id and ${visible('p')}) d
      where location_totals.catalogue_id = new.catalogue_id and location_totals.part = d.part
        and location_totals.location_id in (select ancestor_id from location_paths
          where location_id = new.location_id);
    update location_holdings set units = units + ${delta} where ${aboveStock('new')};`,
  );
  // Any other change of a row (its key): taken away where it was, added where it is.
  await trigger(
    'location_totals_stock_moved',
    `after update on stock_levels
      when (new.product_id <> old.product_id or new.location_id <> old.location_id)`,
    `${applyHoldings('sqlite', `${stockHoldings('old', -1)} and ${productExists('old')}`, aboveStock('old'), true, places)}
    ${applyHoldings('sqlite', `${stockHoldings('new', 1)} and ${productExists('new')}`, aboveStock('new'), true, places)}`,
  );
  await trigger(
    'location_totals_stock_delete',
    `after delete on stock_levels when ${productExists('old')}`,
    applyHoldings('sqlite', stockHoldings('old', -1), aboveStock('old'), true, places),
  );
  const productFlags = (r: 'old' | 'new') =>
    `(${r}.price_cents, ${r}.cost_cents, ${flags(r, POINT).replace(/ as \w+/g, '')})`;
  await trigger(
    'location_totals_product_update',
    `after update of stock, price_cents, cost_cents, reorder_point on products
      when ${productFlags('old')} is not ${productFlags('new')} and ${visible('new')}`,
    `${productsToTotals(`select ${productRow('old', -1, POINT)} union all select ${productRow('new', 1, POINT)}`, places)};`,
  );
  await trigger(
    'location_totals_product_delete',
    'after delete on products',
    `${productsToTotals(`select ${productRow('old', -1, POINT.replace('new.', 'old.'))} where ${visible('old')}`, places)};
    delete from location_holdings where product_id = old.id;`,
  );
  if (point) {
    await trigger(
      'location_totals_point',
      'after update of reorder_point on catalogues when old.reorder_point <> new.reorder_point',
      `${productsToTotals(pointRows('sqlite'))};`,
    );
  }
  await trigger(
    'location_totals_location_insert',
    'after insert on locations',
    locationInsert('sqlite'),
  );
  await trigger(
    'location_totals_location_move',
    'after update of parent_id on locations when old.parent_id is not new.parent_id',
    locationMove('sqlite', places),
  );
  await trigger('location_totals_location_delete', 'after delete on locations', LOCATION_DELETE);
}

export async function postgresTriggers(db: Kysely<unknown>, { places, point }: TriggerSet) {
  const fn = (name: string, body: string) =>
    sql
      .raw(
        `create or replace function ${name}() returns trigger language plpgsql as $$
      begin ${body} return null; end $$`,
      )
      .execute(db);
  const statement = async (name: string, on: string, tables: string, body: string) => {
    await fn(name, body);
    await sql
      .raw(
        `create trigger ${name} ${on} referencing ${tables}
        for each statement execute function ${name}()`,
      )
      .execute(db);
  };
  const row = async (name: string, on: string, body: string, when = '') => {
    await fn(name, body);
    await sql
      .raw(`create trigger ${name} ${on} for each row ${when} execute function ${name}()`)
      .execute(db);
  };
  const stock = (tables: ('new_rows' | 'old_rows')[]) =>
    applyHoldings('postgres', statementHoldings(tables), '', true, places);
  await statement(
    'location_totals_stock_insert',
    'after insert on stock_levels',
    'new table as new_rows',
    stock(['new_rows']),
  );
  await statement(
    'location_totals_stock_update',
    'after update on stock_levels',
    'old table as old_rows new table as new_rows',
    stock(['new_rows', 'old_rows']),
  );
  await statement(
    'location_totals_stock_delete',
    'after delete on stock_levels',
    'old table as old_rows',
    stock(['old_rows']),
  );
  // The statement's catalogues read once each, not once per row (a plan kept from a one-row
  // call would look the catalogue up by key for every product of the next statement).
  const rows = (table: 'old_rows' | 'new_rows', sign: number) =>
    `select ${productRow('r', sign, 'c.reorder_point')}
      from ${table} r join c on c.id = r.catalogue_id where ${visible('r')}`;
  const points = (tables: string[]) =>
    `with c as materialized (select id, reorder_point from catalogues
      where id in (${tables.map((table) => `select catalogue_id from ${table}`).join(' union ')}))`;
  await statement(
    'location_totals_product_update',
    'after update on products',
    'old table as old_rows new table as new_rows',
    `${productsToTotals(`${points(['old_rows', 'new_rows'])} ${rows('old_rows', -1)} union all ${rows('new_rows', 1)}`, places)};`,
  );
  await statement(
    'location_totals_product_delete',
    'after delete on products',
    'old table as old_rows',
    `${productsToTotals(`${points(['old_rows'])} ${rows('old_rows', -1)}`, places)};
    delete from location_holdings where product_id in (select id from old_rows);`,
  );
  if (point) {
    await row(
      'location_totals_point',
      'after update of reorder_point on catalogues',
      `${productsToTotals(pointRows('postgres'))};`,
      'when (old.reorder_point <> new.reorder_point)',
    );
  }
  await row(
    'location_totals_location_insert',
    'after insert on locations',
    locationInsert('postgres'),
  );
  // Every write of the catalogue's products takes the catalogue's row first (ADR 038): so does a
  // move, which changes the totals of many, so that neither waits for the other in turn.
  await row(
    'location_totals_location_move',
    'after update of parent_id on locations',
    `perform 1 from catalogues where id = new.catalogue_id for update;
    ${locationMove('postgres', places)}`,
    'when (old.parent_id is distinct from new.parent_id)',
  );
  await row('location_totals_location_delete', 'after delete on locations', LOCATION_DELETE);
}

/** What exists already (the migration ran before its record was written) goes first. */
async function dropAll(db: Kysely<unknown>, dialect: MigrationDialect) {
  for (const [name, table] of TRIGGERS) {
    if (dialect === 'sqlite') await sql.raw(`drop trigger if exists ${name}`).execute(db);
    else {
      await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
      await sql.raw(`drop function if exists ${name}()`).execute(db);
    }
  }
  for (const table of ['location_totals', 'location_holdings', 'location_paths']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
}

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  await dropAll(db, dialect);
  await db.schema
    .createTable('location_paths')
    .addColumn('location_id', 'text', (c) => c.notNull())
    .addColumn('ancestor_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('location_paths_pkey', ['location_id', 'ancestor_id'])
    .execute();
  // A location's subtree: what a move rewrites.
  await db.schema
    .createIndex('location_paths_ancestor')
    .on('location_paths')
    .columns(['ancestor_id', 'location_id'])
    .execute();
  await db.schema
    .createTable('location_holdings')
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('location_id', 'text', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addColumn('stock_rows', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('location_holdings_pkey', ['product_id', 'location_id'])
    .execute();
  // PostgreSQL: room on each page for a holding's new version beside the old one (a change of
  // units touches no index), so that its indexes are not written again with every stock write.
  if (dialect === 'postgres') {
    await sql`alter table location_holdings set (fillfactor = 70)`.execute(db);
  }
  // What a location holds, product by product: a move, a delete.
  await db.schema
    .createIndex('location_holdings_location')
    .on('location_holdings')
    .columns(['location_id', 'product_id'])
    .execute();
  let totals = db.schema
    .createTable('location_totals')
    .addColumn('catalogue_id', 'text', (c) => c.notNull())
    .addColumn('location_id', 'text', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull());
  for (const column of TOTALS) {
    totals = totals.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  }
  await totals
    .addPrimaryKeyConstraint('location_totals_pkey', ['catalogue_id', 'location_id', 'part'])
    .execute();

  if (dialect === 'sqlite') await sqliteTriggers(db, AS_WRITTEN);
  else await postgresTriggers(db, AS_WRITTEN);

  // What exists, filled once with the triggers in place.
  await sql`insert into location_paths (location_id, ancestor_id)
    with recursive up (location_id, ancestor_id) as (
      select id, id from locations
      union all
      select up.location_id, l.parent_id from up join locations l on l.id = up.ancestor_id
      where l.parent_id is not null
    )
    select location_id, ancestor_id from up`.execute(db);
  await sql`insert into location_totals (catalogue_id, location_id, part)
    select l.catalogue_id, l.id, k.part from locations l cross join ${sql.raw(PARTS)} k`.execute(
    db,
  );
  await sql`insert into location_holdings (product_id, location_id, units, stock_rows)
    select s.product_id, a.ancestor_id, sum(s.quantity), count(*)
    from stock_levels s join location_paths a on a.location_id = s.location_id
    where exists (select 1 from products p where p.id = s.product_id)
    group by s.product_id, a.ancestor_id`.execute(db);
  const everyone = `select ${productRow('p', 1, 'c.reorder_point')}
    from products p join catalogues c on c.id = p.catalogue_id where ${visible('p')}`;
  await sql.raw(productsToTotals(everyone)).execute(db);
}
