import { afterAll, describe, expect, it } from 'vitest';
import { MAX_STOCK } from '../../../src/shared/constants.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { build } from '../support/build.js';
import { productIdsOf } from '../support/products.js';
import { statementRecorder } from '../support/statement-plans.js';
import { api, member, newCatalogue } from '../catalogues/support.js';

/**
 * A transfer writes its lines in a few statements whatever their number: a statement per line
 * would fire the stock rows' statement triggers (PostgreSQL) once per line. The statements the
 * request runs are counted through Kysely, for a transfer of 4 lines and one of 120 that do the
 * same kinds of change (rows emptied, made, taken from), on products of their own.
 */
describe("a transfer's statements", async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const owner = await member(server, 'Ada');
  const { id: catalogueId } = await newCatalogue(server, owner);
  const base = `/api/catalogues/${catalogueId}`;
  await bulkLoad(
    { db, dialect },
    catalogueId,
    Array.from({ length: 250 }, (_, i) => ({
      name: `Product ${i}`,
      description: 'A thing',
      priceCents: 100,
      stock: 6,
      image: null,
      createdAt: i,
      tags: [],
      costCents: null,
      sku: `SKU-${i}`,
      reorderPoint: null,
    })),
  );
  const ids = await productIdsOf(db, catalogueId);
  const place = async (name: string) => {
    const res = await api(server, owner, 'POST', `${base}/locations`, { name, parentId: null });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { location: { id: string } }).location.id;
  };
  const [a, b] = [await place('A'), await place('B')];
  // 2 units of each product in B: the transfers below empty B's rows, make A's and take from
  // the default location's.
  const first = await api(server, owner, 'POST', `${base}/stock/transfers`, {
    lines: ids
      .slice(0, 250)
      .map((productId) => ({ productId, from: catalogueId, to: b, quantity: 2 })),
  });
  expect(first.statusCode, first.body).toBe(200);

  const recorder = statementRecorder();
  afterAll(() => recorder.restore());

  /** Per product: its 4 units left in the default location go to A, its 2 in B go to the default. */
  const transfer = async (products: string[]) => {
    const lines = products.flatMap((productId) => [
      { productId, from: catalogueId, to: a, quantity: 4 },
      { productId, from: b, to: catalogueId, quantity: 2 },
    ]);
    const { result, statements } = await recorder.during(() =>
      api(server, owner, 'POST', `${base}/stock/transfers`, { lines }),
    );
    expect(result.statusCode, result.body).toBe(200);
    return statements.length;
  };

  it('runs as many statements for 120 lines as for 4', async () => {
    const few = await transfer(ids.slice(0, 2));
    const many = await transfer(ids.slice(10, 70));
    expect(many).toBe(few);
  });

  it("adds to a location's units beyond an integer's range", async () => {
    const { id: shop } = await newCatalogue(server, owner, 'Full shelves');
    await bulkLoad(
      { db, dialect },
      shop,
      [0, 1].map((i) => ({
        name: `Full ${i}`,
        description: 'Many',
        priceCents: 1,
        stock: MAX_STOCK,
        image: null,
        createdAt: i,
        tags: [],
        costCents: null,
        sku: null,
        reorderPoint: null,
      })),
    );
    const res = await api(server, owner, 'POST', `/api/catalogues/${shop}/locations`, {
      name: 'Deep',
      parentId: null,
    });
    const deep = (res.json() as { location: { id: string } }).location.id;
    const lines = (await productIdsOf(db, shop)).map((productId) => ({
      productId,
      from: shop,
      to: deep,
      quantity: MAX_STOCK,
    }));
    const moved = await api(server, owner, 'POST', `/api/catalogues/${shop}/stock/transfers`, {
      lines,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const units = await db.selectFrom('locations').select('units').where('id', '=', deep).execute();
    expect(units.map((row) => Number(row.units))).toEqual([2 * MAX_STOCK]);
  });
});
