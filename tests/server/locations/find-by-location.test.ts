import { describe, expect, it } from 'vitest';
import { M, V } from '../../../src/shared/messages.js';
import type { Product, ProductListItem } from '../../../src/shared/schemas/products.js';
import { L, type Location } from '../../../src/shared/schemas/locations/locations.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import {
  adjustStock,
  createProduct,
  getProduct,
  getSummary,
  listProducts,
  lookupCode,
  UNKNOWN_ID,
} from '../support/products.js';

const server = await build();

async function newLocation(who: SignedIn, name: string, parentId: string | null, code?: string) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/locations',
    headers: who.headers,
    payload: { name, parentId, ...(code === undefined ? {} : { code }) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { location: Location }).location;
}

const locationsOf = async (who: SignedIn) =>
  (
    (
      await server.app.inject({ method: 'GET', url: '/api/locations', headers: who.headers })
    ).json() as { locations: Location[] }
  ).locations;

describe('lookup of a code', () => {
  it("answers a location's code with the location, whatever the case", async () => {
    const user = await signIn(server);
    const warehouse = await newLocation(user, 'Warehouse', null);
    const bin = await newLocation(user, 'Bin A1', warehouse.id, 'BIN-A1');
    const product = await createProduct(server, user, { stock: '0' });
    await adjustStock(server, user, product.id, { delta: 3, locationId: bin.id });

    for (const code of ['BIN-A1', 'bin-a1', ' Bin-A1 ']) {
      const res = await lookupCode(server, user, code);
      expect(res.statusCode, code).toBe(200);
      expect(res.json()).toEqual({
        location: {
          id: bin.id,
          name: 'Bin A1',
          parentId: warehouse.id,
          code: 'BIN-A1',
          path: 'Warehouse / Bin A1',
          isDefault: false,
          units: 3,
        },
      });
    }
    // The default location's made code too.
    const main = (await locationsOf(user)).find((location) => location.isDefault)!;
    const found = await lookupCode(server, user, main.code.toLowerCase());
    expect(found.json()).toEqual({ location: main });
  });

  it("answers a product's code exactly as before, and 404 as before for neither", async () => {
    const user = await signIn(server);
    await newLocation(user, 'Shelf', null, 'SHELF-9');
    const product = await createProduct(server, user, { sku: 'LAMP-7' });
    const res = await lookupCode(server, user, 'lamp-7');
    expect(res.statusCode).toBe(200);
    // The single-product read less where its stock is and who sells it: the spec's `{product}`,
    // no more.
    const { product: read } = (await getProduct(server, user, product.id)).json() as {
      product: Product;
    };
    const { locations: _where, suppliers: _sellers, ...plain } = read;
    expect(res.body).toBe(JSON.stringify({ product: plain }));
    expect(Object.keys(res.json() as object)).toEqual(['product']);

    const missing = await lookupCode(server, user, 'SHELF-10');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: M.codeNotFound });
  });

  it("never answers another catalogue's location, and forgets a changed code", async () => {
    const user = await signIn(server);
    const other = await signIn(server);
    const crate = await newLocation(user, 'Crate', null, 'CRATE-1');
    expect((await lookupCode(server, other, 'CRATE-1')).statusCode).toBe(404);
    expect((await lookupCode(server, user, 'CRATE-1')).statusCode).toBe(200);
    const renamed = await server.app.inject({
      method: 'PATCH',
      url: `/api/locations/${crate.id}`,
      headers: user.headers,
      payload: { code: 'CRATE-2' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await lookupCode(server, user, 'CRATE-1')).statusCode).toBe(404);
    expect((await lookupCode(server, user, 'crate-2')).json()).toMatchObject({
      location: { id: crate.id, code: 'CRATE-2' },
    });
  });
});

describe('the list by location', () => {
  /** A warehouse with an aisle of two bins, a top-level crate, and products placed in them. */
  async function stocked() {
    const user = await signIn(server);
    const warehouse = await newLocation(user, 'Warehouse', null);
    const aisle = await newLocation(user, 'Aisle', warehouse.id);
    const bin1 = await newLocation(user, 'Bin 1', aisle.id);
    const bin2 = await newLocation(user, 'Bin 2', aisle.id);
    const crate = await newLocation(user, 'Crate', null);
    const place = async (name: string, at: Record<string, number>, fields = {}) => {
      const all = { name, stock: '0', ...fields } as Parameters<typeof createProduct>[2];
      server.clock.advance(1000);
      const product = await createProduct(server, user, all);
      for (const [locationId, delta] of Object.entries(at)) {
        const res = await adjustStock(server, user, product.id, { delta, locationId });
        expect(res.statusCode, res.body).toBe(200);
      }
      return product;
    };
    const a = await place('Anvil', { [bin1.id]: 3 }, { tags: 'iron' });
    const b = await place('Bolt', { [bin2.id]: 40 });
    const c = await place('Chisel', { [bin1.id]: 2, [bin2.id]: 5 }, { tags: 'iron' });
    const d = await place('Drill', { [crate.id]: 1 });
    const e = await place('Emptied', { [bin1.id]: 4 });
    await adjustStock(server, user, e.id, { delta: -4, locationId: bin1.id });
    const f = await place('File', {});
    await adjustStock(server, user, f.id, { delta: 6 });
    return { user, warehouse, aisle, bin1, bin2, crate, a, b, c, d, e, f };
  }

  const names = async (user: SignedIn, query: string) => {
    const res = await listProducts(server, user, query);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { products: ProductListItem[] }).products.map((p) => p.name);
  };

  it('keeps the products held there or in its sub-locations, each once', async () => {
    const { user, warehouse, aisle, bin1, bin2, crate } = await stocked();
    expect(await names(user, `location=${warehouse.id}&sort=name`)).toEqual([
      'Anvil',
      'Bolt',
      'Chisel',
    ]);
    expect(await names(user, `location=${aisle.id}&sort=name`)).toEqual([
      'Anvil',
      'Bolt',
      'Chisel',
    ]);
    expect(await names(user, `location=${bin1.id}&sort=name`)).toEqual(['Anvil', 'Chisel']);
    expect(await names(user, `location=${bin2.id}&sort=name`)).toEqual(['Bolt', 'Chisel']);
    expect(await names(user, `location=${crate.id}`)).toEqual(['Drill']);
    const main = (await locationsOf(user)).find((location) => location.isDefault)!;
    expect(await names(user, `location=${main.id}`)).toEqual(['File']);
    // Upper case is the same id.
    expect(await names(user, `location=${bin1.id.toUpperCase()}&sort=name`)).toEqual([
      'Anvil',
      'Chisel',
    ]);
  });

  it('combines with every sort, the other filters, a search and the cursor', async () => {
    const { user, warehouse, bin1 } = await stocked();
    const w = `location=${warehouse.id}`;
    expect(await names(user, `${w}`)).toEqual(['Chisel', 'Bolt', 'Anvil']);
    expect(await names(user, `${w}&sort=oldest`)).toEqual(['Anvil', 'Bolt', 'Chisel']);
    expect(await names(user, `${w}&sort=stock-desc`)).toEqual(['Bolt', 'Chisel', 'Anvil']);
    expect(await names(user, `${w}&sort=stock-asc`)).toEqual(['Anvil', 'Chisel', 'Bolt']);
    expect(await names(user, `${w}&tag=iron&sort=name`)).toEqual(['Anvil', 'Chisel']);
    expect(await names(user, `${w}&stock=low&sort=name`)).toEqual(['Anvil', 'Chisel']);
    expect(await names(user, `${w}&q=bolt`)).toEqual(['Bolt']);
    expect(await names(user, `location=${bin1.id}&q=bolt`)).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `${w}&sort=name&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await listProducts(server, user, query);
      const page = res.json() as { products: ProductListItem[]; nextCursor: string | null };
      seen.push(...page.products.map((p) => p.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['Anvil', 'Bolt', 'Chisel']);
  });

  const summaryOf = async (user: SignedIn, query: string) => {
    const res = await getSummary(server, user, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown>;
  };

  it('sums what the location and those under it hold: each product once, its units there', async () => {
    const { user, warehouse, aisle, bin1, bin2, crate, a, c } = await stocked();
    // Prices 19.99 (the default); Anvil costs 2.50, Chisel 1.00 and is to reorder at 7 units (its
    // own point; the others' is the catalogue's, 10).
    for (const [id, fields] of [
      [a.id, { cost: 2.5 }],
      [c.id, { cost: 1, reorderPoint: 7 }],
    ] as const) {
      const res = await server.app.inject({
        method: 'PATCH',
        url: `/api/products/${id}`,
        headers: user.headers,
        payload: fields,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Anvil 3 in bin 1; Bolt 40 in bin 2; Chisel 2 in bin 1 and 5 in bin 2 (7 in all).
    const whole = {
      count: 3,
      units: 50,
      value: 999.5,
      valueAtCost: 14.5,
      toReorder: 2,
    };
    expect(await summaryOf(user, `location=${warehouse.id}`)).toEqual(whole);
    expect(await summaryOf(user, `location=${aisle.id}`)).toEqual(whole);
    expect(await summaryOf(user, `location=${bin1.id}`)).toEqual({
      count: 2,
      units: 5,
      value: 99.95,
      valueAtCost: 9.5,
      toReorder: 2,
    });
    expect(await summaryOf(user, `location=${bin2.id}`)).toEqual({
      count: 2,
      units: 45,
      value: 899.55,
      valueAtCost: 5,
      toReorder: 1,
    });
    // No cost among them: no value at cost, as without a location.
    expect(await summaryOf(user, `location=${crate.id}`)).toEqual({
      count: 1,
      units: 1,
      value: 19.99,
      toReorder: 1,
    });
    // The list's other filters, as the list applies them: the stock filter to a product's stock.
    const w = `location=${warehouse.id}`;
    expect(await summaryOf(user, `${w}&stock=low`)).toEqual({
      count: 2,
      units: 10,
      value: 199.9,
      valueAtCost: 14.5,
      toReorder: 2,
    });
    expect(await summaryOf(user, `${w}&stock=out`)).toEqual({
      count: 0,
      units: 0,
      value: 0,
      toReorder: 0,
    });
    expect(await summaryOf(user, `${w}&stock=reorder`)).toMatchObject({ count: 2, units: 10 });
    expect(await summaryOf(user, `${w}&tag=iron`)).toMatchObject({ count: 2, units: 10 });
    expect(await summaryOf(user, `${w}&q=bolt`)).toMatchObject({ count: 1, units: 40 });
    expect(await summaryOf(user, `location=${bin1.id}&q=bolt`)).toMatchObject({ count: 0 });
    // Each count agrees with the list it sits above.
    for (const query of [w, `${w}&stock=low`, `location=${bin2.id}`, `${w}&q=chisel`]) {
      const { count } = await summaryOf(user, query);
      expect((await names(user, `${query}&limit=100`)).length, query).toBe(count);
    }
    // Without a location, the catalogue's as before.
    expect(await summaryOf(user, '')).toMatchObject({ count: 6, units: 57 });
  });

  it('follows a move at once, and answers 404 and 400 as the list does', async () => {
    const { user, bin1, bin2, a } = await stocked();
    expect(await summaryOf(user, `location=${bin1.id}`)).toMatchObject({ count: 2, units: 5 });
    const moved = await server.app.inject({
      method: 'POST',
      url: '/api/stock/transfers',
      headers: user.headers,
      payload: { productId: a.id, from: bin1.id, to: bin2.id, quantity: 3 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await summaryOf(user, `location=${bin1.id}`)).toMatchObject({ count: 1, units: 2 });
    expect(await summaryOf(user, `location=${bin2.id}`)).toMatchObject({ count: 3, units: 48 });

    const other = await signIn(server);
    const theirs = await newLocation(other, 'Theirs', null);
    for (const id of [UNKNOWN_ID, theirs.id]) {
      const res = await getSummary(server, user, `location=${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: L.notFound });
    }
    const bad = await getSummary(server, user, 'location=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(V.locationFilterInvalid);
  });

  it("answers 404 for a location not the catalogue's and 400 for a malformed id", async () => {
    const { user } = await stocked();
    const other = await signIn(server);
    const theirs = await newLocation(other, 'Theirs', null);
    for (const id of [UNKNOWN_ID, theirs.id]) {
      const res = await listProducts(server, user, `location=${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: L.notFound });
    }
    for (const id of ['nope', '', '1234', `${UNKNOWN_ID}x`]) {
      const res = await listProducts(server, user, `location=${id}`);
      expect(res.statusCode, id).toBe(400);
      expect(res.json().message).toBe(V.locationFilterInvalid);
    }
  });
});
