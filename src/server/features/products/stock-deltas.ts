import { setImmediate } from 'node:timers/promises';
import { sql } from 'kysely';
import { MAX_STOCK, type StockReason } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { CatalogueWrite } from '../writes/index.js';
import { crossedAtOnceStockIs, onReorderPointsReached, pointThatApplies } from './reorder.js';
import { catalogueOf, eachSlice, rowsTable, type Column } from './row-sets.js';
import { addUnits, changeQuantities } from './stock-levels.js';

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

/** The columns of a movement's row, given as a table to the write below. */
const MOVEMENTS: readonly Column[] = [
  ['product_id', 'text'],
  ['location_id', 'text'],
  ['old_stock', 'integer'],
  ['new_stock', 'integer'],
];

const key = (productId: string, locationId: string) => `${productId} ${locationId}`;

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
  await changeQuantities(w, applied);
  const crossed: { id: string; name: string; stock: number; point: number }[] = [];
  await eachSlice(dialect, [...totals], async (batch) => {
    for (const row of await changeProducts(trx, dialect, catalogueId, now, batch)) {
      // Marked by this change: the rows marked before keep their time and were announced then.
      if (row.reorder_crossed_at !== null && products.get(row.id)!.crossedAt === null)
        crossed.push(row);
    }
  });
  const units = new Map<string, number>();
  for (const { locationId, delta } of applied)
    units.set(locationId, (units.get(locationId) ?? 0) + delta);
  await addUnits(w, units);

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
