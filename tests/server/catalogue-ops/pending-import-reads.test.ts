import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { makePending } from '../support/pending-imports.js';
import {
  adjustStock,
  bulkDelete,
  exportCsv,
  getMovements,
  getProduct,
  listProducts,
  lookupCode,
  patchProduct,
} from '../support/products.js';

/**
 * A product written by an import that is still pending is part of no read and no write: the list
 * (every kind of it), search, a tag's summary, lookup, the product itself and its movements, the
 * export, labels and the reports. Once the import's pending row goes (its publish), it is there
 * everywhere. The product is made pending by hand here: the reads are what is tested.
 */
describe("a pending import's products", async () => {
  const server = await build();
  const owner = await signIn(server);
  const db = server.database.db;
  const create = async (fields: object) => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: owner.headers,
      payload: { price: 10, description: 'A lamp', tags: ['lamps'], ...fields },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { product: { id: string } }).product;
  };
  const visible = await create({ name: 'Visible lamp', sku: 'VIS-1', stock: 2 });
  const staged = await create({
    name: 'Staged lamp',
    sku: 'STG-1',
    barcode: '4006381333931',
    stock: 3,
  });
  const { id: importId, catalogueId } = await makePending(db, [staged.id]);

  const get = async (url: string) => {
    const res = await server.app.inject({ method: 'GET', url, headers: owner.headers });
    return { status: res.statusCode, body: res.body, json: () => res.json() as unknown };
  };
  const names = async (query: string) =>
    ((await listProducts(server, owner, query)).json() as { products: { name: string }[] }).products
      .map((product) => product.name)
      .sort();
  const reportNames = async (report: string) =>
    (
      (await get(`/api/products/reports/${report}`)).json() as { products: { name: string }[] }
    ).products
      .map((product) => product.name)
      .sort();

  /** What every read shows of the two products: both, or the visible one alone. */
  async function reads() {
    return {
      list: await names(''),
      byName: await names('sort=name'),
      search: await names('q=lamp'),
      toReorder: await names('stock=reorder'),
      low: await names('stock=low'),
      tagged: await names('tag=lamps'),
      taggedSummary: ((await get('/api/products/summary?tag=lamps')).json() as { count: number })
        .count,
      searchSummary: ((await get('/api/products/summary?q=lamp')).json() as { count: number })
        .count,
      lookupSku: (await lookupCode(server, owner, 'STG-1')).statusCode,
      lookupBarcode: (await lookupCode(server, owner, '4006381333931')).statusCode,
      product: (await getProduct(server, owner, staged.id)).statusCode,
      movements: (await getMovements(server, owner, staged.id)).statusCode,
      export: (await exportCsv(server, owner)).body.includes('Staged lamp'),
      labels: (await get(`/api/products/labels.pdf?ids=${staged.id}`)).status,
      reportToReorder: await reportNames('to-reorder'),
      topMovers: await reportNames('top-movers'),
    };
  }

  it('are in no read while the import is pending', async () => {
    expect(await reads()).toEqual({
      list: ['Visible lamp'],
      byName: ['Visible lamp'],
      search: ['Visible lamp'],
      toReorder: ['Visible lamp'],
      low: ['Visible lamp'],
      tagged: ['Visible lamp'],
      taggedSummary: 1,
      searchSummary: 1,
      lookupSku: 404,
      lookupBarcode: 404,
      product: 404,
      movements: 404,
      export: false,
      labels: 404,
      reportToReorder: ['Visible lamp'],
      topMovers: ['Visible lamp'],
    });
  });

  it('take no write while the import is pending', async () => {
    expect((await adjustStock(server, owner, staged.id, { delta: 1 })).statusCode).toBe(404);
    expect((await patchProduct(server, owner, staged.id, { name: 'Mine' })).statusCode).toBe(404);
    const deleted = await bulkDelete(server, owner, { ids: [visible.id, staged.id] });
    expect(deleted.statusCode).toBe(404);
    const row = await db
      .selectFrom('products')
      .select(['name', 'stock'])
      .where('id', '=', staged.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Staged lamp', stock: 3 });
    expect((await getProduct(server, owner, visible.id)).statusCode).toBe(200);
  });

  it('are in every read once the import is published', async () => {
    // A publish is a write of the catalogue: its version goes up with it (cached reads go).
    await db.deleteFrom('pending_imports').where('id', '=', importId).execute();
    await db
      .updateTable('catalogues')
      .set({ version: (eb) => eb('version', '+', 1) })
      .where('id', '=', catalogueId)
      .execute();
    const both = ['Staged lamp', 'Visible lamp'];
    expect(await reads()).toEqual({
      list: both,
      byName: both,
      search: both,
      toReorder: both,
      low: both,
      tagged: both,
      taggedSummary: 2,
      searchSummary: 2,
      lookupSku: 200,
      lookupBarcode: 200,
      product: 200,
      movements: 200,
      export: true,
      labels: 200,
      reportToReorder: both,
      topMovers: both,
    });
  });
});
