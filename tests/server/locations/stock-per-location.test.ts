import { describe, expect, it } from 'vitest';
import { M, T } from '../../../src/shared/messages.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import { L, type Location } from '../../../src/shared/schemas/locations/locations.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import {
  adjustStock,
  createProduct,
  deleteProduct,
  getProduct,
  patchProduct,
  UNKNOWN_ID,
} from '../support/products.js';

const server = await build();

const locationsApi = (
  who: SignedIn,
  method: 'GET' | 'POST' | 'DELETE',
  url = '',
  payload?: object,
) =>
  server.app.inject({
    method,
    url: `/api/locations${url}`,
    headers: who.headers,
    ...(payload ? { payload } : {}),
  });

async function newLocation(who: SignedIn, name: string) {
  const res = await locationsApi(who, 'POST', '', { name, parentId: null });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { location: Location }).location;
}

const unitsOf = async (who: SignedIn) => {
  const { locations } = (await locationsApi(who, 'GET')).json() as { locations: Location[] };
  return Object.fromEntries(locations.map((location) => [location.name, location.units]));
};

const whereIs = async (who: SignedIn, id: string) => {
  const { product } = (await getProduct(server, who, id)).json() as { product: Product };
  return {
    stock: product.stock,
    at: Object.fromEntries((product.locations ?? []).map((held) => [held.path, held.quantity])),
  };
};

describe('stock per location', () => {
  it('puts a change without a location in the default one, with one in that one', async () => {
    const user = await signIn(server);
    const bin = await newLocation(user, 'Bin 1');
    const product = await createProduct(server, user, { stock: '10' });
    expect(await whereIs(user, product.id)).toEqual({ stock: 10, at: { Main: 10 } });

    const into = await adjustStock(server, user, product.id, { delta: 4, locationId: bin.id });
    expect(into.statusCode, into.body).toBe(200);
    expect(into.json()).toMatchObject({ message: M.stockAdjusted, product: { stock: 14 } });
    const plain = await adjustStock(server, user, product.id, { delta: -3 });
    expect(plain.json()).toMatchObject({ product: { stock: 11 } });
    expect(await whereIs(user, product.id)).toEqual({ stock: 11, at: { Main: 7, 'Bin 1': 4 } });
    expect(await unitsOf(user)).toEqual({ Main: 7, 'Bin 1': 4 });

    const counted = await adjustStock(server, user, product.id, { count: 9, locationId: bin.id });
    expect(counted.json()).toMatchObject({ product: { stock: 16 } });
    expect(await whereIs(user, product.id)).toEqual({ stock: 16, at: { Main: 7, 'Bin 1': 9 } });
  });

  it('never takes a location below 0, and says how many it holds', async () => {
    const user = await signIn(server);
    const bin = await newLocation(user, 'Bin 2');
    const product = await createProduct(server, user, { stock: '5' });
    await adjustStock(server, user, product.id, { delta: 2, locationId: bin.id });

    const there = await adjustStock(server, user, product.id, { delta: -3, locationId: bin.id });
    expect(there.statusCode).toBe(409);
    expect(there.json()).toEqual({ message: T.locationBelowZero(2, -3) });
    const main = await adjustStock(server, user, product.id, { delta: -6 });
    expect(main.statusCode).toBe(409);
    expect(main.json()).toEqual({ message: T.stockBelowZero(5, -6) });
    expect(await whereIs(user, product.id)).toEqual({ stock: 7, at: { Main: 5, 'Bin 2': 2 } });
  });

  it('refuses a location that is not one of the catalogue’s, and a malformed one', async () => {
    const user = await signIn(server);
    const other = await signIn(server);
    const theirs = await newLocation(other, 'Theirs');
    const product = await createProduct(server, user, { stock: '5' });
    for (const locationId of [UNKNOWN_ID, theirs.id]) {
      const res = await adjustStock(server, user, product.id, { delta: 1, locationId });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: M.locationNotFound });
    }
    const bad = await adjustStock(server, user, product.id, { delta: 1, locationId: 'bin' });
    expect(bad.statusCode).toBe(400);
    expect(await whereIs(user, product.id)).toEqual({ stock: 5, at: { Main: 5 } });
    expect(await unitsOf(other)).toEqual({ Main: 0, Theirs: 0 });
  });

  it('takes what an edit removes from the default location first, then the fullest', async () => {
    const user = await signIn(server);
    const [a, b] = [await newLocation(user, 'A'), await newLocation(user, 'B')];
    const product = await createProduct(server, user, { stock: '3' });
    await adjustStock(server, user, product.id, { delta: 5, locationId: a.id });
    await adjustStock(server, user, product.id, { delta: 2, locationId: b.id });
    const res = await patchProduct(server, user, product.id, { stock: '4' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await whereIs(user, product.id)).toEqual({ stock: 4, at: { A: 2, B: 2 } });
    await patchProduct(server, user, product.id, { stock: '6' });
    expect(await whereIs(user, product.id)).toEqual({ stock: 6, at: { Main: 2, A: 2, B: 2 } });
    expect(await unitsOf(user)).toEqual({ Main: 2, A: 2, B: 2 });
  });

  it('keeps a location holding stock, and empties the totals of a deleted product', async () => {
    const user = await signIn(server);
    const bin = await newLocation(user, 'Bin 3');
    const product = await createProduct(server, user, { stock: '1' });
    await adjustStock(server, user, product.id, { delta: 2, locationId: bin.id });
    const refused = await locationsApi(user, 'DELETE', `/${bin.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: L.holdsStock });
    expect((await deleteProduct(server, user, product.id)).statusCode).toBe(200);
    expect(await unitsOf(user)).toEqual({ Main: 0, 'Bin 3': 0 });
    expect((await locationsApi(user, 'DELETE', `/${bin.id}`)).statusCode).toBe(200);
  });

  it('puts an undone delete’s stock back where it was, and undoes a change where it was made', async () => {
    const user = await signIn(server);
    const bin = await newLocation(user, 'Bin 4');
    const product = await createProduct(server, user, { stock: '1' });
    await adjustStock(server, user, product.id, { delta: 2, locationId: bin.id });
    // The default location's id is its catalogue's.
    const { locations } = (await locationsApi(user, 'GET')).json() as { locations: Location[] };
    const base = `/api/catalogues/${locations.find((location) => location.isDefault)!.id}`;
    const latest = async (kind: string) => {
      const res = await server.app.inject({
        method: 'GET',
        url: `${base}/activity?kind=${kind}&limit=1`,
        headers: user.headers,
      });
      return (res.json() as { entries: { id: string }[] }).entries[0]!;
    };
    const undo = async (kind: string) => {
      const entry = await latest(kind);
      const res = await server.app.inject({
        method: 'POST',
        url: `${base}/activity/${entry.id}/undo`,
        headers: user.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await undo('stock.moved');
    expect(await whereIs(user, product.id)).toEqual({ stock: 1, at: { Main: 1 } });
    await adjustStock(server, user, product.id, { delta: 2, locationId: bin.id });
    await deleteProduct(server, user, product.id);
    await undo('product.deleted');
    expect(await whereIs(user, product.id)).toEqual({ stock: 3, at: { Main: 1, 'Bin 4': 2 } });
    expect(await unitsOf(user)).toEqual({ Main: 1, 'Bin 4': 2 });
  });

  it('leaves no place holding 0 when a count that changed nothing is undone', async () => {
    const user = await signIn(server);
    const bin = await newLocation(user, 'Bin 5');
    const product = await createProduct(server, user, { stock: '4' });
    // Counted 0 where it has none: a movement of 0, kept as the count itself.
    const counted = await adjustStock(server, user, product.id, { count: 0, locationId: bin.id });
    expect(counted.statusCode, counted.body).toBe(200);
    const { locations } = (await locationsApi(user, 'GET')).json() as { locations: Location[] };
    const base = `/api/catalogues/${locations.find((location) => location.isDefault)!.id}`;
    const listed = await server.app.inject({
      method: 'GET',
      url: `${base}/activity?kind=stock.moved&limit=1`,
      headers: user.headers,
    });
    const [entry] = (listed.json() as { entries: { id: string }[] }).entries;
    const undone = await server.app.inject({
      method: 'POST',
      url: `${base}/activity/${entry!.id}/undo`,
      headers: user.headers,
    });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await whereIs(user, product.id)).toEqual({ stock: 4, at: { Main: 4 } });
    // A place holding nothing has no row: the bin holds no stock and can go.
    expect((await locationsApi(user, 'DELETE', `/${bin.id}`)).statusCode).toBe(200);
  });
});
