import { afterAll, describe, expect, it } from 'vitest';
import { MAX_STOCK } from '../../../src/shared/constants.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { build } from '../support/build.js';
import { csvText, importCsv, plainProducts, productIdsOf } from '../support/products.js';
import { statementRecorder } from '../support/statement-plans.js';
import { api, member, newCatalogue } from '../catalogues/support.js';

/**
 * Writes of stock at many locations run a few statements whatever their number of rows: a
 * statement per row would fire the stock rows' statement triggers (PostgreSQL) once per row. The
 * statements a request runs are counted through Kysely, for a few rows and for many rows that
 * make the same kinds of change, on products of their own.
 */
const server = await build();
const { db, dialect } = server.database;
const owner = await member(server, 'Ada');
const recorder = statementRecorder();
afterAll(() => recorder.restore());

/** A catalogue of the owner's, its `count` products of `stock` units each in its default location. */
async function stocked(count: number, stock: number) {
  const { id: catalogueId } = await newCatalogue(server, owner);
  await bulkLoad({ db, dialect }, catalogueId, plainProducts(count, stock));
  const base = `/api/catalogues/${catalogueId}`;
  const place = async (name: string) => {
    const res = await api(server, owner, 'POST', `${base}/locations`, { name, parentId: null });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { location: { id: string } }).location.id;
  };
  const move = (lines: { productId: string; from: string; to: string; quantity: number }[]) =>
    api(server, owner, 'POST', `${base}/stock/transfers`, { lines });
  return { catalogueId, base, ids: await productIdsOf(db, catalogueId), place, move };
}

/** The stock rows of these products, by product and location. */
const levelsOf = (productIds: string[]) =>
  db
    .selectFrom('stock_levels')
    .select(['product_id', 'location_id', 'quantity'])
    .where('product_id', 'in', productIds)
    .orderBy('product_id')
    .orderBy('location_id')
    .execute();

/** The units each location of the catalogue holds. */
async function unitsIn(catalogueId: string) {
  const units = await db
    .selectFrom('locations')
    .select(['id', 'units'])
    .where('catalogue_id', '=', catalogueId)
    .execute();
  return new Map(units.map((row) => [row.id, Number(row.units)]));
}

describe("a transfer's statements", () => {
  it('runs as many statements for 120 lines as for 4', async () => {
    const { catalogueId, ids, place, move } = await stocked(250, 6);
    const [a, b] = [await place('A'), await place('B')];
    // 2 units of each product in B: the transfers below empty B's rows, make A's and take from
    // the default location's.
    const first = await move(
      ids.map((productId) => ({ productId, from: catalogueId, to: b, quantity: 2 })),
    );
    expect(first.statusCode, first.body).toBe(200);
    /** Per product: its 4 units left in the default location go to A, its 2 in B to the default. */
    const transfer = async (products: string[]) => {
      const lines = products.flatMap((productId) => [
        { productId, from: catalogueId, to: a, quantity: 4 },
        { productId, from: b, to: catalogueId, quantity: 2 },
      ]);
      const { result, statements } = await recorder.during(() => move(lines));
      expect(result.statusCode, result.body).toBe(200);
      return statements.length;
    };
    const few = await transfer(ids.slice(0, 2));
    const many = await transfer(ids.slice(10, 70));
    expect(many).toBe(few);
  });

  it('reads the stock rows of its products by product alone', async () => {
    const { catalogueId, ids, place, move } = await stocked(40, 6);
    const bins: string[] = [];
    for (let i = 0; i < 8; i++) bins.push(await place(`Bin ${i}`));
    const lines = ids.map((productId, i) => ({
      productId,
      from: catalogueId,
      to: bins[i % 8]!,
      quantity: 1,
    }));
    const { result, statements } = await recorder.during(() => move(lines));
    expect(result.statusCode, result.body).toBe(200);
    // Given a list of locations beside the list of products, SQLite probes the stock rows' key
    // once for every pair of them (a 500-line transfer: 250,000 probes).
    const reads = statements.filter((query) => /^\s*select[\s\S]*\bstock_levels\b/.test(query.sql));
    expect(reads.length).toBeGreaterThan(0);
    for (const { sql } of reads) expect(sql).not.toMatch(/"location_id" in/);
  });

  it("adds to a location's units beyond an integer's range", async () => {
    const { catalogueId, ids, place, move } = await stocked(2, MAX_STOCK);
    const deep = await place('Deep');
    const moved = await move(
      ids.map((productId) => ({ productId, from: catalogueId, to: deep, quantity: MAX_STOCK })),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    const units = await db.selectFrom('locations').select('units').where('id', '=', deep).execute();
    expect(units.map((row) => Number(row.units))).toEqual([2 * MAX_STOCK]);
  });
});

/**
 * A stock import sets quantities at named locations: each line's difference from what is held
 * there, gained or taken, as in a count's posting.
 */
describe("a stock import's statements", () => {
  it('runs as many statements for 120 lines as for 4', async () => {
    const { catalogueId, base, ids, place, move } = await stocked(100, 6);
    const [a, b] = [await place('A'), await place('B')];
    const moved = await move(
      ids.map((productId) => ({ productId, from: catalogueId, to: b, quantity: 2 })),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    /** Per product: 3 units counted in A, where it had none, and none in B, which held 2. */
    const count = async (products: string[]) => {
      const rows = products.flatMap((id) => [
        [id, 'A', 3],
        [id, 'B', 0],
      ]);
      const csv = csvText([['id', 'location', 'quantity'], ...rows]);
      const { result, statements } = await recorder.during(() =>
        importCsv(server, owner, csv, '', `${base}/products/stock-by-location`),
      );
      expect(result.statusCode, result.body).toBe(200);
      expect(result.json()).toMatchObject({ changed: rows.length, unchanged: 0 });
      return statements.length;
    };
    const few = await count(ids.slice(0, 2));
    const many = await count(ids.slice(20, 80));
    expect(many).toBe(few);

    const levels = await levelsOf([ids[0]!, ids[20]!, ids[90]!]);
    const expected = [
      ...[0, 20].flatMap((i) => [
        { product_id: ids[i], location_id: catalogueId, quantity: 4 },
        { product_id: ids[i], location_id: a, quantity: 3 },
      ]),
      { product_id: ids[90], location_id: catalogueId, quantity: 4 },
      { product_id: ids[90], location_id: b, quantity: 2 },
    ];
    const byKey = (row: { product_id?: string; location_id: string }) =>
      `${row.product_id} ${row.location_id}`;
    expect(levels.sort((x, y) => (byKey(x) < byKey(y) ? -1 : 1))).toEqual(
      expected.sort((x, y) => (byKey(x) < byKey(y) ? -1 : 1)),
    );
    const held = await unitsIn(catalogueId);
    // 62 products counted: 3 each in A, B's 2 each gone from the other 38 left.
    expect([held.get(a), held.get(b), held.get(catalogueId)]).toEqual([186, 76, 400]);
  });
});

/**
 * A decrease of stock made without a location (an import, an edit) that the default location
 * cannot cover takes the rest from the product's other places.
 */
describe("a shortfall's statements", () => {
  it('runs as many statements for 60 products in 5 places as for 2', async () => {
    const { catalogueId, base, ids, place, move } = await stocked(100, 6);
    const bins: string[] = [];
    for (let i = 0; i < 5; i++) bins.push(await place(`Bin ${i}`));
    // Each product's 6 units in one of the bins, none left in the default location.
    const moved = await move(
      ids.map((productId, i) => ({ productId, from: catalogueId, to: bins[i % 5]!, quantity: 6 })),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    /** Imports the products with a stock of 2: 4 units each taken from its bin. */
    const lower = async (products: string[]) => {
      const rows = products.map((id) => [id, `Product ${ids.indexOf(id)}`, '1.00', '2', 'A thing']);
      const csv = csvText([['id', 'name', 'price', 'stock', 'description'], ...rows]);
      const { result, statements } = await recorder.during(() =>
        importCsv(server, owner, csv, '', `${base}/products`),
      );
      expect(result.statusCode, result.body).toBe(200);
      return statements.length;
    };
    const few = await lower(ids.slice(0, 2));
    const many = await lower(ids.slice(20, 80));
    expect(many).toBe(few);

    expect(await levelsOf([ids[0]!, ids[1]!, ids[20]!])).toEqual(
      [0, 1, 20].map((i) => ({ product_id: ids[i], location_id: bins[i % 5], quantity: 2 })),
    );
    const held = await unitsIn(catalogueId);
    // 20 products a bin, 6 units each, less 4 for each lowered: one in bins 0 and 1, 12 in each.
    expect(bins.map((bin) => held.get(bin))).toEqual([68, 68, 72, 72, 72]);
    expect(held.get(catalogueId)).toBe(0);
  });
});
