import type { MigrationDialect } from '../migrate.js';

/*
 * The SQL of migration 061 (a location's totals kept by the database), as it was written: the
 * rules of the summed statement (features/products/held-summary.ts) and of migration 032's parts,
 * frozen here so that a later change of the app changes none of them.
 *
 * Three tables: `location_paths` (each location's ancestors, itself included), `location_holdings`
 * (per location and product: the units the product has there and under it, and in how many stock
 * rows; no row when none) and `location_totals` (per location and part, what its visible products
 * add up to, each sum of money in three integer parts as migration 032 keeps them).
 *
 * One rule in every trigger: the totals equal what the holdings and the products are now. A change
 * of holdings (a stock row, a location moved) is applied with the products as they are; a change
 * of a product (or of the catalogue's point) with the holdings as they are. So a product deleted
 * takes its holdings away, and its stock rows, deleted by cascade before or after, change nothing.
 */

/** The low threshold when this migration was written. */
const LOW = 10;

export const PARTS = `(select 'all' as part union all select 'low' union all select 'out' union all select 'reorder')`;

export const TOTALS = [
  'count',
  'units',
  'costed',
  'to_reorder',
  ...['value', 'cost'].flatMap((name) => ['low', 'middle', 'high'].map((h) => `${name}_${h}`)),
];

/**
 * Whether the totals also keep `places` (migration 066): the stock rows of the visible products
 * held there and under it. A stock row at 0 is deleted, so these are the places that hold stock,
 * each a holding's `stock_rows` summed as its `units` are. Migration 061 built without them, and
 * does so still: every statement below is the one it wrote when `places` is false.
 */
export type WithPlaces = boolean;

const columnsOf = (places: WithPlaces) => (places ? [...TOTALS, 'places'] : TOTALS);

/** Whether the product `p` is of no pending import (migration 039's condition). */
export const visible = (p: string) =>
  `(${p}.import_id is null or ${p}.import_id not in (select id from pending_imports))`;

const flag = (condition: string) => `(case when ${condition} then 1 else 0 end)`;

/** The conditions on the product `p` that decide its parts, given its catalogue's point. */
const conditions = (p: string, point: string) => ({
  is_low: `${p}.stock between 1 and ${LOW}`,
  is_out: `${p}.stock = 0`,
  to_reorder: `${p}.stock <= coalesce(${p}.reorder_point, ${point})`,
});

/** The product `p`'s flags (1 or 0) that decide its parts, given its catalogue's point. */
export const flags = (p: string, point: string) =>
  Object.entries(conditions(p, point))
    .map(([name, condition]) => `${flag(condition)} as ${name}`)
    .join(', ');

/** Whether a product counts in the part named by `part`, its flags or conditions given. */
const inPart = (part: string, is: { is_low: string; is_out: string; to_reorder: string }) =>
  `(${part} = 'all' or (${part} = 'low' and ${is.is_low}) or (${part} = 'out' and ${is.is_out})` +
  ` or (${part} = 'reorder' and ${is.to_reorder}))`;

/** The flags of `r` as conditions. */
const flagged = (r: string) => ({
  is_low: `${r}.is_low = 1`,
  is_out: `${r}.is_out = 1`,
  to_reorder: `${r}.to_reorder = 1`,
});

/** Whether the product `p` counts in the part named by `part`, given its catalogue's point. */
export const productInPart = (part: string, p: string, point: string) =>
  inPart(part, conditions(p, point));

/** cents × units in three parts (16-bit halves multiplied), exact for a signed `units` too. */
export function halves(cents: string, units: string): [string, string, string] {
  const [c0, c1] = [`(${cents} & 65535)`, `(${cents} >> 16)`];
  const [u0, u1] = [`(${units} & 65535)`, `(${units} >> 16)`];
  return [`${c0} * ${u0}`, `${c0} * ${u1} + ${c1} * ${u0}`, `${c1} * ${u1}`];
}

/**
 * What a product (`r`: its price, cost and flags) adds to a part for `units` held, each column
 * times `held` (1 when the product newly counts there, -1 when it no longer does, 0 otherwise).
 */
function contributions(
  r: string,
  held: string,
  units: string,
  toReorder: string,
  places: string | undefined,
): string[] {
  return [
    held,
    units,
    `${held} * (case when ${r}.cost_cents is null then 0 else 1 end)`,
    `${held} * ${toReorder}`,
    ...halves(`${r}.price_cents`, units),
    ...halves(`coalesce(${r}.cost_cents, 0)`, units),
    ...(places === undefined ? [] : [places]),
  ];
}

/** Adds the sums of `d` (one row per catalogue, location and part) to the totals. */
const addTotals = (d: string, places: WithPlaces) => `update location_totals set ${columnsOf(places)
  .map((column) => `${column} = location_totals.${column} + d.${column}`)
  .join(', ')}
  from (${d}) d
  where location_totals.catalogue_id = d.catalogue_id
    and location_totals.location_id = d.location_id and location_totals.part = d.part`;

/**
 * The totals' change for changes of holdings: `j` has one row per location and product, with
 * `units` and `stock_rows` the change and `held_rows` the stock rows held before (null: none).
 */
function holdingsToTotals(j: string, places: WithPlaces) {
  const before = `(case when coalesce(j.held_rows, 0) > 0 then 1 else 0 end)`;
  const after = `(case when coalesce(j.held_rows, 0) + j.stock_rows > 0 then 1 else 0 end)`;
  const is = conditions('p', 'c.reorder_point');
  const columns = columnsOf(places);
  const sums = contributions(
    'p',
    `(${after} - ${before})`,
    'j.units',
    flag(is.to_reorder),
    places ? 'j.stock_rows' : undefined,
  ).map((value, i) => `sum(${value}) as ${columns[i]}`);
  return addTotals(
    `select j.catalogue_id, j.location_id, k.part, ${sums.join(', ')}
    from (${j}) j
    join products p on p.id = j.product_id
    join catalogues c on c.id = p.catalogue_id
    join ${PARTS} k on ${inPart('k.part', is)}
    where ${visible('p')}
    group by j.catalogue_id, j.location_id, k.part`,
    places,
  );
}

/**
 * The totals' change for changes of products: `r` has their rows as they were (sign -1) and as
 * they are (sign 1), each with its flags; a product whose price, cost and flags did not change
 * cancels out, and the rest are applied over their holdings as they are.
 */
export function productsToTotals(r: string, places: WithPlaces = false) {
  const state = 'id, catalogue_id, price_cents, cost_cents, is_low, is_out, to_reorder';
  const columns = columnsOf(places);
  const sums = contributions(
    'p',
    'p.sign',
    'p.sign * h.units',
    'p.to_reorder',
    places ? 'p.sign * h.stock_rows' : undefined,
  ).map((value, i) => `sum(${value}) as ${columns[i]}`);
  return addTotals(
    `select p.catalogue_id, h.location_id, k.part, ${sums.join(', ')}
    from (select ${state}, sum(sign) as sign from (${r}) r
      group by ${state} having sum(sign) <> 0) p
    join location_holdings h on h.product_id = p.id
    join ${PARTS} k on ${inPart('k.part', flagged('p'))}
    group by p.catalogue_id, h.location_id, k.part`,
    places,
  );
}

/** A product row's columns as `productsToTotals` reads them, with a sign. */
export const productRow = (p: string, sign: number, point: string) =>
  `${p}.id as id, ${p}.catalogue_id as catalogue_id, ${p}.price_cents as price_cents,
    ${p}.cost_cents as cost_cents, ${flags(p, point)}, ${sign} as sign`;

/**
 * Changes of holdings (`s`: catalogue_id, location_id, product_id, units, stock_rows, one row per
 * location and product, of products that exist) applied: the totals changed from the holdings as
 * they were, then the holdings. SQLite: three statements (no WITH in a trigger), the emptied
 * holdings found by `emptied`, a condition on `location_holdings`. PostgreSQL: one statement
 * whose parts all read the holdings as they were, each holding deleted, updated (a join costs
 * less than an insert's conflict) or inserted.
 */
export function applyHoldings(
  dialect: MigrationDialect,
  s: string,
  emptied: string,
  totals = true,
  places: WithPlaces = false,
): string {
  const joined = `select s.*, h.stock_rows as held_rows from (${s}) s
    left join location_holdings h on h.product_id = s.product_id and h.location_id = s.location_id`;
  const upsert = (from: string) => `insert into location_holdings
      (product_id, location_id, units, stock_rows)
    select product_id, location_id, units, stock_rows from ${from}
    on conflict (product_id, location_id) do update set
      units = location_holdings.units + excluded.units,
      stock_rows = location_holdings.stock_rows + excluded.stock_rows`;
  if (dialect === 'sqlite') {
    return `${totals ? `${holdingsToTotals(joined, places)};` : ''}
      ${upsert(`(${s}) where true`)};
      delete from location_holdings where stock_rows = 0 and ${emptied};`;
  }
  return `with j as materialized (${joined}),
      t as (${holdingsToTotals('select * from j', places)}),
      gone as (delete from location_holdings h using j
        where h.product_id = j.product_id and h.location_id = j.location_id
          and j.held_rows + j.stock_rows = 0),
      kept as (update location_holdings h
        set units = h.units + j.units, stock_rows = h.stock_rows + j.stock_rows from j
        where h.product_id = j.product_id and h.location_id = j.location_id
          and j.held_rows + j.stock_rows <> 0)
    ${upsert('j where j.held_rows is null')};`;
}

/** The holdings a location moved takes away from (-1) or adds to (1) the locations above it. */
export const movedHoldings = (sign: number) =>
  `select new.catalogue_id as catalogue_id, a.ancestor_id as location_id, h.product_id,
      ${sign} * h.units as units, ${sign} * h.stock_rows as stock_rows
    from location_holdings h
    join location_paths a on a.location_id = new.id and a.ancestor_id <> new.id
    where h.location_id = new.id`;

/** A stock row's holdings at its location and those above it, its quantity times `sign`. */
export const stockHoldings = (r: 'new' | 'old', sign: number) =>
  `select ${r}.catalogue_id as catalogue_id, ancestor_id as location_id,
      ${r}.product_id as product_id, ${sign} * ${r}.quantity as units, ${sign} as stock_rows
    from location_paths where location_id = ${r}.location_id`;

export const aboveStock = (r: 'new' | 'old') =>
  `product_id = ${r}.product_id
    and location_id in (select ancestor_id from location_paths where location_id = ${r}.location_id)`;

export const productExists = (r: 'new' | 'old') =>
  `exists (select 1 from products where id = ${r}.product_id)`;

/** Whether the stock row's product exists and is of no pending import. */
export const productVisible = (r: 'new' | 'old', visibleOrNot: boolean) =>
  `exists (select 1 from products p where p.id = ${r}.product_id
    and ${visibleOrNot ? '' : 'not '}${visible('p')})`;

export const POINT = '(select reorder_point from catalogues where id = new.catalogue_id)';

/** The products a change of the catalogue's point moves: as they were and as they are. */
export function pointRows(dialect: MigrationDialect) {
  const [least, greatest] = dialect === 'postgres' ? ['least', 'greatest'] : ['min', 'max'];
  const among = `from products p where p.catalogue_id = new.id and p.reorder_point is null
    and p.stock > ${least}(old.reorder_point, new.reorder_point)
    and p.stock <= ${greatest}(old.reorder_point, new.reorder_point) and ${visible('p')}`;
  return `select ${productRow('p', -1, 'old.reorder_point')} ${among}
    union all select ${productRow('p', 1, 'new.reorder_point')} ${among}`;
}

/** A location added: its paths (its parent's and itself) and its four parts at zero. */
export function locationInsert(dialect: MigrationDialect) {
  const [insert, ignore] =
    dialect === 'sqlite'
      ? ['insert or ignore into', '']
      : ['insert into', 'on conflict do nothing'];
  return `${insert} location_paths (location_id, ancestor_id)
      select new.id, ancestor_id from location_paths where location_id = new.parent_id
      union all select new.id, new.id ${ignore};
    ${insert} location_totals (catalogue_id, location_id, part)
      select new.catalogue_id, new.id, part from ${PARTS} k ${ignore};`;
}

/** A location deleted (it holds nothing, or its catalogue goes): its rows go. */
export const LOCATION_DELETE = `delete from location_paths where location_id = old.id;
  delete from location_paths where ancestor_id = old.id;
  delete from location_totals where catalogue_id = old.catalogue_id and location_id = old.id;
  delete from location_holdings where location_id = old.id;`;

/**
 * A location moved: its subtree's holdings (its own row per product) taken from the locations
 * above it, its subtree's paths rewritten, and the holdings added to those above it now.
 */
export function locationMove(dialect: MigrationDialect, places: WithPlaces = false) {
  const emptied = `product_id in (select product_id from location_holdings where location_id = new.id)`;
  return `${applyHoldings(dialect, movedHoldings(-1), emptied, true, places)}
    delete from location_paths
      where location_id in (select location_id from location_paths where ancestor_id = new.id)
        and ancestor_id in (select ancestor_id from location_paths
          where location_id = new.id and ancestor_id <> new.id);
    insert into location_paths (location_id, ancestor_id)
      select d.location_id, a.ancestor_id from location_paths d
      join location_paths a on a.location_id = new.parent_id
      where d.ancestor_id = new.id;
    ${applyHoldings(dialect, movedHoldings(1), emptied, true, places)}`;
}

/** PostgreSQL: a statement's stock rows, summed per product and location above them. */
export function statementHoldings(tables: ('new_rows' | 'old_rows')[]) {
  const rows = tables.map(
    (table) =>
      `select catalogue_id, location_id, product_id,
        ${table === 'new_rows' ? '' : '-'}quantity::bigint as units,
        ${table === 'new_rows' ? 1 : -1} as stock_rows from ${table}`,
  );
  return `select r.catalogue_id, a.ancestor_id as location_id, r.product_id,
      sum(r.units)::bigint as units, sum(r.stock_rows)::integer as stock_rows
    from (${rows.join(' union all ')}) r
    join location_paths a on a.location_id = r.location_id
    where exists (select 1 from products p where p.id = r.product_id)
    group by r.catalogue_id, a.ancestor_id, r.product_id
    having sum(r.units) <> 0 or sum(r.stock_rows) <> 0`;
}
