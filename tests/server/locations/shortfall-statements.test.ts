import { afterAll, describe, expect, it } from 'vitest';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { build } from '../support/build.js';
import { csvText, importCsv, productIdsOf } from '../support/products.js';
import { statementRecorder } from '../support/statement-plans.js';
import { api, member, newCatalogue } from '../catalogues/support.js';

/**
 * A decrease of stock made without a location (an import, an edit) that the default location
 * cannot cover takes the rest from the product's other places: in a few statements whatever the
 * number of products and places, counted through Kysely, for an import of 2 products and one of
 * 60, each product's stock held in one of 5 bins and none in the default location.
 */
describe("a shortfall's statements", async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const owner = await member(server, 'Ada');
  const { id: catalogueId } = await newCatalogue(server, owner);
  const base = `/api/catalogues/${catalogueId}`;
  await bulkLoad(
    { db, dialect },
    catalogueId,
    Array.from({ length: 100 }, (_, i) => ({
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
  const bins: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await api(server, owner, 'POST', `${base}/locations`, {
      name: `Bin ${i}`,
      parentId: null,
    });
    expect(res.statusCode, res.body).toBe(201);
    bins.push((res.json() as { location: { id: string } }).location.id);
  }
  const moved = await api(server, owner, 'POST', `${base}/stock/transfers`, {
    lines: ids.map((productId, i) => ({
      productId,
      from: catalogueId,
      to: bins[i % 5]!,
      quantity: 6,
    })),
  });
  expect(moved.statusCode, moved.body).toBe(200);

  const recorder = statementRecorder();
  afterAll(() => recorder.restore());

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

  it('runs as many statements for 60 products as for 2', async () => {
    const few = await lower(ids.slice(0, 2));
    const many = await lower(ids.slice(20, 80));
    expect(many).toBe(few);
    const levels = await db
      .selectFrom('stock_levels')
      .select(['product_id', 'location_id', 'quantity'])
      .where('product_id', 'in', [ids[0]!, ids[1]!, ids[20]!])
      .orderBy('product_id')
      .execute();
    expect(levels).toEqual(
      [0, 1, 20].map((i) => ({ product_id: ids[i], location_id: bins[i % 5], quantity: 2 })),
    );
    const units = await db
      .selectFrom('locations')
      .select(['id', 'units'])
      .where('catalogue_id', '=', catalogueId)
      .execute();
    const held = new Map(units.map((row) => [row.id, row.units]));
    // 20 products a bin, 6 units each, less 4 for each lowered: one in bins 0 and 1, 12 in each.
    expect(bins.map((bin) => held.get(bin))).toEqual([68, 68, 72, 72, 72]);
    expect(held.get(catalogueId)).toBe(0);
  });
});
