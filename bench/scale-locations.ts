/**
 * The places of a `npm run bench:scale` catalogue: 10 warehouses of 10 aisles of 98 bins (with
 * the default location, 9,911 locations: about as many as a catalogue may have), and every
 * product's stock spread over 3 bins, as a stockroom that keeps each product in a few places.
 * Written through the data layer, keeping what the writes keep: a product's stock is the sum of
 * its quantities, and each location's `units` the sum of what it holds.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../src/server/infra/db/handle.js';

export const WAREHOUSES = 10;
const AISLES = 10;
const BINS = 98;

/** A bin's code: what a scan of its label reads. */
export const binCode = (w: number, a: number, b: number) => `BIN-${w}-${a}-${b}`;

/** Rows per INSERT: well under either engine's limit on bound parameters. */
const BATCH = 500;

export async function seedLocations({ db, dialect }: DatabaseHandle, catalogueId: string) {
  const rows: { id: string; parent: string | null; name: string; code: string }[] = [];
  const bins: string[] = [];
  for (let w = 0; w < WAREHOUSES; w += 1) {
    const warehouse = randomUUID();
    rows.push({ id: warehouse, parent: null, name: `Warehouse ${w}`, code: `WH-${w}` });
    for (let a = 0; a < AISLES; a += 1) {
      const aisle = randomUUID();
      rows.push({ id: aisle, parent: warehouse, name: `Aisle ${w}-${a}`, code: `AI-${w}-${a}` });
      for (let b = 0; b < BINS; b += 1) {
        const bin = randomUUID();
        bins.push(bin);
        rows.push({ id: bin, parent: aisle, name: `Bin ${w}-${a}-${b}`, code: binCode(w, a, b) });
      }
    }
  }
  const now = Date.now();
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto('locations')
      .values(
        rows.slice(i, i + BATCH).map((row) => ({
          id: row.id,
          catalogue_id: catalogueId,
          parent_id: row.parent,
          name: row.name,
          name_key: row.name.toLowerCase(),
          code: row.code,
          code_key: row.code.toLowerCase(),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  // Each product's stock, all in the default location so far, goes to 3 bins spread over the
  // warehouses (a product with fewer than 3 units stays where it is).
  const products = await db
    .selectFrom('products')
    .select(['id', 'stock'])
    .where('catalogue_id', '=', catalogueId)
    .where('stock', '>=', 3)
    .orderBy('created_at')
    .execute();
  for (let i = 0; i < products.length; i += BATCH) {
    const page = products.slice(i, i + BATCH);
    await db
      .deleteFrom('stock_levels')
      .where('location_id', '=', catalogueId)
      .where(
        'product_id',
        'in',
        page.map((product) => product.id),
      )
      .execute();
    const levels = page.flatMap(({ id, stock }, j) => {
      const n = i + j;
      const third = Math.floor(stock / 3);
      return [third, third, stock - 2 * third].map((quantity, k) => ({
        product_id: id,
        location_id: bins[(n * 3 + k * 3301) % bins.length]!,
        catalogue_id: catalogueId,
        quantity,
      }));
    });
    await db
      .insertInto('stock_levels')
      .values(levels.filter((level) => level.quantity > 0))
      .execute();
  }
  // PostgreSQL's statistics still have every stock row in one place (the default location), so
  // without fresh ones it sums each location's units by reading the whole table: at 100,000
  // products, 10,000 reads of 290,000 rows, which did not end in 15 minutes.
  if (dialect === 'postgres') await sql`analyze stock_levels`.execute(db);
  await sql`update locations set units = coalesce(
      (select sum(quantity) from stock_levels where location_id = locations.id), 0)
    where catalogue_id = ${catalogueId}`.execute(db);
  // Statistics of the tables as they now are, as autovacuum gathers them within a minute: taken
  // before the locations were there, they tell PostgreSQL's planner a tree of one row, and it walks
  // 10,000 by reading the table once per location found (0.5 s for a warehouse).
  if (dialect === 'postgres') await sql`analyze locations, stock_levels`.execute(db);
}
