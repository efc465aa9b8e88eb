import { setImmediate } from 'node:timers/promises';
import { sql, type RawBuilder } from 'kysely';
import { MAX_STOCK, type StockReason } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { CatalogueWrite } from '../writes/index.js';
import { crossedAtOnceStockIs, onReorderPointsReached, pointThatApplies } from './reorder.js';
import { putIn } from './stock-levels.js';

/** A change of one product's quantity at one location. */
export interface StockDelta {
  productId: string;
  locationId: string;
  delta: number;
}

/** What the deltas did, or why they did nothing. */
export type DeltasResult =
  | { outcome: 'done'; applied: StockDelta[] }
  | { outcome: 'short'; name: string; locationId: string }
  | { outcome: 'above-max'; name: string }
  | { outcome: 'no-location' };

/** Rows per read: a few values each, well under either engine's limit on bound parameters. */
const BATCH_ROWS = 500;

/**
 * Rows per write statement, a turn of the event loop between two. SQLite runs each statement on
 * the event loop, its row triggers included (a movement's days and windows, a product's totals):
 * 250 rows hold it for tens of milliseconds, where 1,000 held it for a quarter of a second.
 * PostgreSQL's run on its server, so fewer round trips: 1,000 rows.
 */
const WRITE_ROWS = { sqlite: 250, postgres: 1_000 } as const;

const key = (productId: string, locationId: string) => `${productId} ${locationId}`;

/** Runs `write` on each WRITE_ROWS slice of the rows in turn, a turn of the event loop before each. */
async function eachSlice<T>(
  dialect: MigrationDialect,
  rows: readonly T[],
  write: (slice: T[]) => Promise<unknown>,
) {
  const size = WRITE_ROWS[dialect];
  for (let i = 0; i < rows.length; i += size) {
    await setImmediate();
    await write(rows.slice(i, i + size));
  }
}

type Column = readonly [name: string, type: 'text' | 'integer'];

/** The columns of the rows the writes below give as tables: a location's units, a movement. */
const LOCATION_UNITS: readonly Column[] = [
  ['id', 'text'],
  ['gained', 'integer'],
];
const MOVEMENTS: readonly Column[] = [
  ['product_id', 'text'],
  ['location_id', 'text'],
  ['old_stock', 'integer'],
  ['new_stock', 'integer'],
];

/**
 * Rows given as one table of a statement (alias it), in a text that stays the same whatever their
 * number: SQLite reads them from one JSON parameter, PostgreSQL from one array per column. `n`
 * numbers them in their order.
 */
function rowsTable(
  dialect: MigrationDialect,
  columns: readonly Column[],
  rows: readonly (string | number)[][],
): RawBuilder<unknown> {
  if (dialect === 'sqlite') {
    const picks = columns.map(
      ([name], i) => sql`value ->> ${sql.raw(String(i))} as ${sql.id(name)}`,
    );
    return sql`(select key as n, ${sql.join(picks)} from json_each(${JSON.stringify(rows)}))`;
  }
  const arrays = columns.map(
    ([, type], i) => sql`cast(${rows.map((row) => row[i])} as ${sql.raw(type)}[])`,
  );
  const names = sql.join(columns.map(([name]) => sql.id(name)));
  return sql`(select * from unnest(${sql.join(arrays)}) with ordinality as t(${names}, n))`;
}

/**
 * A table's `catalogue_id` in a statement that joins it to rowsTable on its key. SQLite takes a
 * JSON table for a small one and would read the whole catalogue down its index, probing the JSON
 * for each row (minutes for 10,000 rows): the unary `+` keeps the index out of reach, so each of
 * the rows probes the table's key instead.
 */
const catalogueOf = (dialect: MigrationDialect, table: 'products' | 'locations') =>
  dialect === 'sqlite'
    ? sql`+${sql.ref(`${table}.catalogue_id`)}`
    : sql.ref(`${table}.catalogue_id`);

/**
 * Applies many changes of quantities at locations in a few statements whatever their number (a
 * count's posting, its undo): every product's stock and every location's units follow, each
 * change is a movement of its product at its location. A decrease a location cannot cover is
 * cut to what it holds (`short: 'cut'`, a count: stock sold during it stays sold) or refuses the
 * whole (`short: 'refuse'`, an undo). Runs in a write of the pipeline, whose catalogue lock makes
 * the quantities read here the ones changed (PostgreSQL; SQLite writes one at a time).
 */
export async function applyStockDeltas(
  w: CatalogueWrite,
  deltas: StockDelta[],
  how: {
    short: 'cut' | 'refuse';
    reason: StockReason | null;
    note: string | null;
    countId: string;
  },
): Promise<DeltasResult> {
  const { trx, catalogueId } = w;
  const wanted = deltas.filter((d) => d.delta !== 0);
  const products = new Map<string, { name: string; stock: number; crossedAt: number | null }>();
  const held = new Map<string, number>();
  const locations = new Set<string>();
  for (let i = 0; i < wanted.length; i += BATCH_ROWS) {
    if (i > 0) await setImmediate();
    const batch = wanted.slice(i, i + BATCH_ROWS);
    const ids = [...new Set(batch.map((d) => d.productId))];
    const rows = await trx
      .selectFrom('products')
      .select(['id', 'name', 'stock', 'reorder_crossed_at'])
      .where('catalogue_id', '=', catalogueId)
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) {
      products.set(row.id, { name: row.name, stock: row.stock, crossedAt: row.reorder_crossed_at });
    }
    const places = [...new Set(batch.map((d) => d.locationId))];
    const found = await trx
      .selectFrom('locations')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .where('id', 'in', places)
      .execute();
    for (const { id } of found) locations.add(id);
    const levels = await trx
      .selectFrom('stock_levels')
      .select(['product_id', 'location_id', 'quantity'])
      .where('product_id', 'in', ids)
      .where('location_id', 'in', places)
      .execute();
    for (const level of levels) held.set(key(level.product_id, level.location_id), level.quantity);
  }

  const applied: StockDelta[] = [];
  const totals = new Map<string, number>();
  for (const d of wanted) {
    const product = products.get(d.productId);
    // A product deleted since has nothing left to change.
    if (!product) continue;
    if (!locations.has(d.locationId)) {
      if (how.short === 'refuse') return { outcome: 'no-location' };
      continue;
    }
    const there = held.get(key(d.productId, d.locationId)) ?? 0;
    let delta = d.delta;
    if (there + delta < 0) {
      if (how.short === 'refuse') {
        return { outcome: 'short', name: product.name, locationId: d.locationId };
      }
      delta = -there;
    }
    if (delta === 0) continue;
    held.set(key(d.productId, d.locationId), there + delta);
    totals.set(d.productId, (totals.get(d.productId) ?? 0) + delta);
    applied.push({ productId: d.productId, locationId: d.locationId, delta });
  }
  for (const [id, total] of totals) {
    const product = products.get(id)!;
    if (product.stock + total > MAX_STOCK) return { outcome: 'above-max', name: product.name };
  }
  if (applied.length === 0) return { outcome: 'done', applied };
  await writeDeltas(w, applied, products, totals, how);
  return { outcome: 'done', applied };
}

/**
 * The statements of the changes checked: quantities, products (their stock, when they last
 * moved, their reorder marks), locations' units, movements. Each a statement per WRITE_ROWS
 * rows, whatever the catalogue's size: the rows are a table of the statement, joined to what
 * they change down its key.
 */
async function writeDeltas(
  w: CatalogueWrite,
  applied: StockDelta[],
  products: Map<string, { name: string; stock: number; crossedAt: number | null }>,
  totals: Map<string, number>,
  how: { reason: StockReason | null; note: string | null; countId: string },
) {
  const { trx, catalogueId, actorId, now, dialect } = w;
  // Quantities: an upsert adds each change (a decrease lands on a row that holds enough), then
  // the rows left at 0 go, as every write of stock leaves none.
  await eachSlice(dialect, applied, (slice) =>
    putIn(
      trx,
      catalogueId,
      slice.map(({ productId, locationId, delta }) => ({ productId, locationId, quantity: delta })),
    ),
  );
  const crossed: { id: string; name: string; stock: number; point: number }[] = [];
  await eachSlice(dialect, [...totals], async (batch) => {
    await trx
      .deleteFrom('stock_levels')
      .where(
        'product_id',
        'in',
        batch.map(([id]) => id),
      )
      .where('quantity', '=', 0)
      .execute();
    for (const row of await changeProducts(trx, dialect, catalogueId, now, batch)) {
      // Marked by this change: the rows marked before keep their time and were announced then.
      if (row.reorder_crossed_at !== null && products.get(row.id)!.crossedAt === null)
        crossed.push(row);
    }
  });
  const units = new Map<string, number>();
  for (const { locationId, delta } of applied)
    units.set(locationId, (units.get(locationId) ?? 0) + delta);
  const places = [...units].filter(([, n]) => n !== 0);
  // Not one statement per location in the order of their ids: the pipeline's catalogue lock
  // (PostgreSQL) already keeps two writes of the catalogue from taking them in opposite orders.
  // The ids listed as well: PostgreSQL then finds the rows by key, where it would read every
  // location of a catalogue with few of them down its catalogue's index.
  await eachSlice(dialect, places, (slice) =>
    sql`update locations set units = units + d.gained
      from ${rowsTable(dialect, LOCATION_UNITS, slice)} as d
      where ${catalogueOf(dialect, 'locations')} = ${catalogueId} and locations.id = d.id
      and locations.id in (${sql.join(slice.map(([id]) => id))})`.execute(trx),
  );

  const running = new Map([...products].map(([id, { stock }]) => [id, stock]));
  const movements = applied.map(({ productId, locationId, delta }) => {
    const oldStock = running.get(productId)!;
    running.set(productId, oldStock + delta);
    return [productId, locationId, oldStock, oldStock + delta];
  });
  // Cast, as PostgreSQL types a select's parameters as text.
  await eachSlice(dialect, movements, (slice) =>
    sql`insert into stock_movements (product_id, catalogue_id, actor_id, created_at,
        old_stock, new_stock, delta, source, note, reason, location_id, count_id)
      select d.product_id, ${catalogueId}, cast(${actorId} as text), cast(${now} as bigint),
        d.old_stock, d.new_stock, d.new_stock - d.old_stock, 'count', cast(${how.note} as text),
        cast(${how.reason} as text), d.location_id, cast(${how.countId} as text)
      from ${rowsTable(dialect, MOVEMENTS, slice)} as d order by d.n`.execute(trx),
  );
  await onReorderPointsReached(trx, catalogueId, crossed, now);
}

/**
 * Adds each product's total change to its stock in one statement, with what follows from it on
 * the same row: its `updated_at`, its `last_moved_at` as the movements' trigger would set it
 * (migration 042: so that trigger finds nothing left to write, and each row is written once,
 * its indexes with it, not twice) and its reorder mark (trackReorderCrossings' rule). Returns
 * the products newly marked, to announce.
 */
async function changeProducts(
  trx: DB,
  dialect: MigrationDialect,
  catalogueId: string,
  now: number,
  batch: [string, number][],
) {
  const table = rowsTable(
    dialect,
    [
      ['id', 'text'],
      ['delta', 'integer'],
    ],
    batch,
  );
  const { rows } = await sql<{
    id: string;
    name: string;
    stock: number;
    point: number;
    reorder_crossed_at: number | null;
  }>`update products set stock = stock + d.delta, updated_at = ${now},
      last_moved_at = case when cast(${now} as bigint) > created_at
        and coalesce(last_moved_at < ${now}, true) then ${now} else last_moved_at end,
      reorder_crossed_at = ${crossedAtOnceStockIs(catalogueId, sql`(stock + d.delta)`, now)}
    from ${table} as d
    where ${catalogueOf(dialect, 'products')} = ${catalogueId} and products.id = d.id
    returning products.id, products.name, products.stock, products.reorder_crossed_at,
      ${pointThatApplies(catalogueId)} as point`.execute(trx);
  return rows;
}
