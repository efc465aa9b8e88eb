import { sql } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { CatalogueWrite } from '../writes/index.js';
import { eachSlice, locationsOf, rowsTable, type Column } from './row-sets.js';

/*
 * Stock per location (migration 032): a product's quantity in each location where it has some,
 * whose sum is its `stock`, and each location's `units`, the sum of its quantities. Every write
 * that changes a product's stock changes these in its transaction, with the product's row locked
 * first (PostgreSQL); the locations' totals are changed last. Writes sharing locations wait for
 * each other on the pipeline's catalogue lock (PostgreSQL) instead of deadlocking on them.
 */

/** Rows per INSERT: 4 values each, well under either engine's limit on bound parameters. */
const BATCH_ROWS = 1000;

/** Where a change of stock writes: the transaction, its engine and the catalogue. */
export type StockWrite = Pick<CatalogueWrite, 'trx' | 'dialect' | 'catalogueId'>;

/** Units gained (or lost, below 0) by location, to add to their totals at the end of a change. */
export type UnitChanges = Map<string, number>;

export const addTo = (units: UnitChanges, locationId: string, quantity: number) => {
  units.set(locationId, (units.get(locationId) ?? 0) + quantity);
};

/** A location's change of units: beyond an integer's range when many products gain their most. */
const LOCATION_UNITS: readonly Column[] = [
  ['id', 'text'],
  ['gained', 'bigint'],
];

/**
 * Adds what each location gained or lost to its total, a statement per slice. Not one statement
 * per location in the order of their ids: the pipeline's catalogue lock (PostgreSQL) already
 * keeps two writes of the catalogue from taking them in opposite orders. The ids listed as well:
 * PostgreSQL then finds the rows by key.
 */
export async function addUnits({ trx, dialect, catalogueId }: StockWrite, units: UnitChanges) {
  const places = [...units].filter(([, n]) => n !== 0);
  await eachSlice(dialect, places, (slice) =>
    sql`update locations set units = units + d.gained
      from ${rowsTable(dialect, LOCATION_UNITS, slice)} as d
      where ${locationsOf(dialect, catalogueId)} and locations.id = d.id
      and locations.id in (${sql.join(slice.map(([id]) => id))})`.execute(trx),
  );
}

/** Whether the location is one of the catalogue's. */
export async function isLocationOf(trx: DB, catalogueId: string, locationId: string) {
  const row = await trx
    .selectFrom('locations')
    .select('id')
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', locationId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The product's quantity in the location (0 where it has none). */
export async function quantityAt(trx: DB, productId: string, locationId: string) {
  const row = await trx
    .selectFrom('stock_levels')
    .select('quantity')
    .where('product_id', '=', productId)
    .where('location_id', '=', locationId)
    .executeTakeFirst();
  return row?.quantity ?? 0;
}

const PLACES: readonly Column[] = [
  ['product_id', 'text'],
  ['location_id', 'text'],
];

/**
 * What each product holds at each location of `places` (none listed where it holds none), a read
 * per slice, each pair found down the rows' key: given a list of products beside a list of
 * locations, SQLite would probe the key for every pair of them (250,000 probes for a transfer of
 * 500 products from 500 bins).
 */
export async function heldAt(
  { trx, dialect }: StockWrite,
  places: readonly (readonly [productId: string, locationId: string])[],
) {
  const held: { product_id: string; location_id: string; quantity: number }[] = [];
  await eachSlice(dialect, places as [string, string][], async (slice) => {
    const { rows } = await sql<(typeof held)[number]>`select s.product_id, s.location_id,
        s.quantity
      from ${rowsTable(dialect, PLACES, slice)} as d
      join stock_levels as s on s.product_id = d.product_id and s.location_id = d.location_id`.execute(
      trx,
    );
    held.push(...rows);
  });
  return held;
}

/**
 * Adds units of a product to a location (its total is the caller's to change). A change of 0 is
 * left out: it changes no row, and would make one holding nothing where there was none (an undo
 * of a count that changed nothing), which the location then takes for stock held there.
 */
export async function putIn(
  trx: DB,
  catalogueId: string,
  changes: { productId: string; locationId: string; quantity: number }[],
) {
  const levels = changes.filter((level) => level.quantity !== 0);
  for (let i = 0; i < levels.length; i += BATCH_ROWS) {
    const rows = levels.slice(i, i + BATCH_ROWS).map((level) => ({
      product_id: level.productId,
      location_id: level.locationId,
      catalogue_id: catalogueId,
      quantity: level.quantity,
    }));
    await trx
      .insertInto('stock_levels')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['product_id', 'location_id']).doUpdateSet((eb) => ({
          quantity: eb('stock_levels.quantity', '+', eb.ref('excluded.quantity')),
        })),
      )
      .execute();
  }
}

/**
 * Adds signed changes to products' quantities at locations, an upsert per slice (a decrease lands
 * on a row that holds enough: the caller checked), then drops the rows left at 0 among the
 * products decreased, as every write of stock leaves none (only a decrease can empty a row; the
 * others' rows are not read again). At most one change per product and location.
 */
export async function changeQuantities(
  { trx, dialect, catalogueId }: StockWrite,
  changes: { productId: string; locationId: string; delta: number }[],
) {
  await eachSlice(dialect, changes, (slice) =>
    putIn(
      trx,
      catalogueId,
      slice.map(({ productId, locationId, delta }) => ({ productId, locationId, quantity: delta })),
    ),
  );
  const ids = [...new Set(changes.filter((c) => c.delta <= 0).map((c) => c.productId))];
  await eachSlice(dialect, ids, (slice) =>
    trx
      .deleteFrom('stock_levels')
      .where('product_id', 'in', slice)
      .where('quantity', '=', 0)
      .execute(),
  );
}

/**
 * Takes units of a product from a location in one conditional UPDATE, unless it holds fewer: then
 * nothing changes, and the quantity it holds is returned. A location left with none loses its row.
 */
export async function takeFrom(
  trx: DB,
  productId: string,
  locationId: string,
  quantity: number,
): Promise<{ taken: true } | { taken: false; held: number }> {
  const row = await trx
    .updateTable('stock_levels')
    .set((eb) => ({ quantity: eb('quantity', '-', quantity) }))
    .where('product_id', '=', productId)
    .where('location_id', '=', locationId)
    .where('quantity', '>=', quantity)
    .returning('quantity')
    .executeTakeFirst();
  if (!row) return { taken: false, held: await quantityAt(trx, productId, locationId) };
  if (row.quantity === 0) await dropEmpty(trx, [productId], locationId);
  return { taken: true };
}

/** Sets a product's quantity in a location; returns the quantity it replaced. */
export async function setQuantity(
  trx: DB,
  catalogueId: string,
  productId: string,
  locationId: string,
  quantity: number,
): Promise<number> {
  const held = await quantityAt(trx, productId, locationId);
  if (quantity > held)
    await putIn(trx, catalogueId, [{ productId, locationId, quantity: quantity - held }]);
  if (quantity < held) await takeFrom(trx, productId, locationId, held - quantity);
  return held;
}

async function dropEmpty(trx: DB, productIds: string[], locationId: string) {
  await trx
    .deleteFrom('stock_levels')
    .where('location_id', '=', locationId)
    .where('product_id', 'in', productIds)
    .where('quantity', '=', 0)
    .execute();
}

/**
 * Changes of products' stock made without naming a location (a creation, an edit, an import, an
 * undo of one): they go to the catalogue's default location, whose id is the catalogue's. A
 * decrease the default location cannot cover takes the rest from the product's other locations,
 * the fullest first, so that the stock asked for is what the product has, as before locations.
 * A few statements per BATCH_ROWS products, whatever their number (an import, a bulk edit).
 */
export async function placeInDefault(
  w: StockWrite,
  changes: { productId: string; delta: number }[],
  countUnits = true,
) {
  const { trx, catalogueId } = w;
  const home = catalogueId;
  const deltas = new Map<string, number>();
  for (const { productId, delta } of changes)
    deltas.set(productId, (deltas.get(productId) ?? 0) + delta);
  const moved = [...deltas].filter(([, delta]) => delta !== 0);
  if (moved.length === 0) return;
  const units: UnitChanges = new Map();
  const levels = moved.map(([productId, quantity]) => ({ productId, locationId: home, quantity }));
  await putIn(trx, catalogueId, levels);
  for (const [, delta] of moved) addTo(units, home, delta);
  const decreased = moved.filter(([, delta]) => delta < 0).map(([productId]) => productId);
  for (let i = 0; i < decreased.length; i += BATCH_ROWS) {
    const ids = decreased.slice(i, i + BATCH_ROWS);
    const short = await trx
      .selectFrom('stock_levels')
      .select(['product_id', 'quantity'])
      .where('location_id', '=', home)
      .where('product_id', 'in', ids)
      .where('quantity', '<', 0)
      .execute();
    if (short.length > 0) await takeElsewhere(w, short, units);
    // Rows left at 0: at home, and where the shortfall emptied them.
    await trx
      .deleteFrom('stock_levels')
      .where('product_id', 'in', ids)
      .where('quantity', '=', 0)
      .execute();
  }
  if (countUnits) await addUnits(w, units);
}

/**
 * Brings each product's quantity at home up from below 0 to 0 with units of its other places,
 * the fullest first, in one read of their rows and one upsert of what is taken and put back.
 */
async function takeElsewhere(
  { trx, catalogueId }: StockWrite,
  short: { product_id: string; quantity: number }[],
  units: UnitChanges,
) {
  const home = catalogueId;
  const others = await trx
    .selectFrom('stock_levels')
    .select(['product_id', 'location_id', 'quantity'])
    .where(
      'product_id',
      'in',
      short.map((row) => row.product_id),
    )
    .where('location_id', '<>', home)
    .orderBy('product_id')
    .orderBy('quantity', 'desc')
    .orderBy('location_id')
    .execute();
  const missing = new Map(short.map((row) => [row.product_id, -row.quantity]));
  const left = new Map(missing);
  const levels: { productId: string; locationId: string; quantity: number }[] = [];
  for (const { product_id: productId, location_id: locationId, quantity } of others) {
    const taken = Math.min(left.get(productId)!, quantity);
    if (taken === 0) continue;
    levels.push({ productId, locationId, quantity: -taken });
    addTo(units, locationId, -taken);
    left.set(productId, left.get(productId)! - taken);
  }
  for (const [productId, wanted] of missing) {
    const covered = wanted - left.get(productId)!;
    levels.push({ productId, locationId: home, quantity: covered });
    addTo(units, home, covered);
  }
  await putIn(trx, catalogueId, levels);
}
