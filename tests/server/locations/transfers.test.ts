import { describe, expect, it } from 'vitest';
import { ACTIVITY_MESSAGES as A } from '../../../src/shared/activity.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import type { Location } from '../../../src/shared/schemas/locations/locations.js';
import { M } from '../../../src/shared/messages.js';
import { TR } from '../../../src/shared/schemas/locations/transfers.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { adjustStock, createProduct, getProduct, UNKNOWN_ID } from '../support/products.js';
import {
  addMember,
  api,
  createIn,
  member,
  newCatalogue,
  productOf,
} from '../catalogues/support.js';

const server = await build();

const inject = (who: SignedIn, method: 'GET' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
const move = (who: SignedIn, payload: object) =>
  inject(who, 'POST', '/api/stock/transfers', payload);

async function setUp() {
  const user = await signIn(server);
  const made = async (name: string) => {
    const res = await inject(user, 'POST', '/api/locations', { name, parentId: null });
    return (res.json() as { location: Location }).location;
  };
  const [a, b] = [await made('A'), await made('B')];
  const { locations } = (await inject(user, 'GET', '/api/locations')).json() as {
    locations: Location[];
  };
  const main = locations.find((location) => location.isDefault)!;
  return { user, a, b, main };
}

const placesOf = async (who: SignedIn, id: string) => {
  const { product } = (await getProduct(server, who, id)).json() as { product: Product };
  return {
    stock: product.stock,
    at: Object.fromEntries((product.locations ?? []).map((held) => [held.path, held.quantity])),
  };
};

describe('moves of stock between locations', () => {
  it('moves one line or many, the totals unchanged, as one undoable entry', async () => {
    const { user, a, b, main } = await setUp();
    const cup = await createProduct(server, user, { name: 'Cup', stock: '10' });
    const jug = await createProduct(server, user, { name: 'Jug', stock: '4' });
    const one = await move(user, { productId: cup.id, from: main.id, to: a.id, quantity: 3 });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ message: TR.moved(3, 1) });
    const many = await move(user, {
      lines: [
        { productId: cup.id, from: a.id, to: b.id, quantity: 2 },
        { productId: jug.id, from: main.id, to: b.id, quantity: 4 },
      ],
    });
    expect(many.statusCode, many.body).toBe(200);
    expect(many.json()).toMatchObject({ message: TR.moved(6, 2) });
    expect(await placesOf(user, cup.id)).toEqual({ stock: 10, at: { Main: 7, A: 1, B: 2 } });
    expect(await placesOf(user, jug.id)).toEqual({ stock: 4, at: { B: 4 } });
    const units = (await inject(user, 'GET', '/api/locations')).json() as { locations: Location[] };
    expect(units.locations.map((location) => [location.name, location.units])).toEqual([
      ['A', 1],
      ['B', 6],
      ['Main', 7],
    ]);

    const base = `/api/catalogues/${main.id}`;
    const { entries } = (
      await inject(user, 'GET', `${base}/activity?kind=stock.transferred`)
    ).json() as {
      entries: { id: string; undoable: boolean }[];
    };
    expect(entries).toHaveLength(2);
    const undone = await inject(user, 'POST', `${base}/activity/${entries[0]!.id}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await placesOf(user, cup.id)).toEqual({ stock: 10, at: { Main: 7, A: 3 } });
    expect(await placesOf(user, jug.id)).toEqual({ stock: 4, at: { Main: 4 } });
    // The first move's 3 units have moved on from A: its undo is refused, nothing changes.
    await move(user, { productId: cup.id, from: a.id, to: b.id, quantity: 3 });
    const refused = await inject(user, 'POST', `${base}/activity/${entries[1]!.id}/undo`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: A.movedSince });
    expect(await placesOf(user, cup.id)).toEqual({ stock: 10, at: { Main: 7, B: 3 } });
  });

  it('moves nothing when one line does not fit, and says which', async () => {
    const { user, a, main } = await setUp();
    const cup = await createProduct(server, user, { name: 'Cup', stock: '5' });
    const res = await move(user, {
      lines: [
        { productId: cup.id, from: main.id, to: a.id, quantity: 4 },
        { productId: cup.id, from: main.id, to: a.id, quantity: 2 },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: TR.short('Cup', 'Main', 5, 6) });
    expect(await placesOf(user, cup.id)).toEqual({ stock: 5, at: { Main: 5 } });
  });

  it('refuses bad lines with 400 and unknown products or locations with 404', async () => {
    const { user, a, main } = await setUp();
    const other = await setUp();
    const cup = await createProduct(server, user, { stock: '500' });
    const line = { productId: cup.id, from: main.id, to: a.id, quantity: 1 };
    const { quantity: _quantity, ...noQuantity } = line;
    // Each refusal names its field, whichever form the body takes.
    for (const [body, path, message] of [
      [{ ...line, to: main.id }, 'to', TR.sameLocation],
      [{ ...line, quantity: 0 }, 'quantity', TR.quantityInvalid],
      [{ ...line, quantity: 1.5 }, 'quantity', TR.quantityInvalid],
      [{ ...line, quantity: '2' }, 'quantity', TR.quantityInvalid],
      [noQuantity, 'quantity', TR.quantityInvalid],
      [{ ...line, from: 'main' }, 'from', TR.idInvalid],
      [{ lines: [] }, 'lines', TR.linesInvalid],
      [{ lines: 5 }, 'lines', TR.linesInvalid],
      [{ lines: Array.from({ length: 501 }, () => line) }, 'lines', TR.linesInvalid],
      [{ lines: [line, { ...line, quantity: 1.5 }] }, 'lines.1.quantity', TR.quantityInvalid],
      [{ lines: [{ ...line, quantity: '2' }] }, 'lines.0.quantity', TR.quantityInvalid],
      [{ lines: [noQuantity] }, 'lines.0.quantity', TR.quantityInvalid],
      [{ lines: [{ ...line, to: main.id }] }, 'lines.0.to', TR.sameLocation],
    ] as const) {
      const res = await move(user, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json(), JSON.stringify(body).slice(0, 80)).toEqual({
        message,
        errors: [{ path, message }],
      });
    }
    expect(TR.quantityInvalid).toBe('Quantity must be a whole number from 1 to 2,147,483,647');
    // No body, or one that is not an object, is still said plainly.
    for (const payload of [undefined, [1], 'text']) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/stock/transfers',
        headers: { ...user.headers, 'content-type': 'application/json' },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: M.bodyRequired });
    }
    const missing = [
      [{ ...line, productId: UNKNOWN_ID }, TR.productNotFound],
      [{ ...line, to: other.a.id }, TR.locationNotFound],
      [{ ...line, from: UNKNOWN_ID }, TR.locationNotFound],
    ] as const;
    for (const [body, message] of missing) {
      const res = await move(user, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message });
    }
    expect(await placesOf(user, cup.id)).toEqual({ stock: 500, at: { Main: 500 } });
    const most = await move(user, { lines: Array.from({ length: 500 }, () => line) });
    expect(most.statusCode, most.body).toBe(200);
    expect(await placesOf(user, cup.id)).toEqual({ stock: 500, at: { A: 500 } });
  });

  it('moves all or nothing when many move the same stock at once', async () => {
    const { user, a, b, main } = await setUp();
    const cup = await createProduct(server, user, { stock: '10' });
    const jug = await createProduct(server, user, { stock: '10' });
    // 12 moves of 2 of each from Main: 5 fit; the others find too little and move nothing.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        move(user, {
          lines: [
            { productId: cup.id, from: main.id, to: i % 2 ? a.id : b.id, quantity: 2 },
            { productId: jug.id, from: main.id, to: i % 2 ? b.id : a.id, quantity: 2 },
          ],
        }),
      ),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(409)]);
    for (const product of [cup, jug]) {
      const { stock, at } = await placesOf(user, product.id);
      expect(stock).toBe(10);
      expect(at.Main).toBeUndefined();
      expect((at.A ?? 0) + (at.B ?? 0)).toBe(10);
    }
    // Adjustments racing moves of the same stock: no location below 0 either.
    await Promise.all([
      adjustStock(server, user, cup.id, { delta: -4, locationId: a.id }),
      move(user, { productId: cup.id, from: a.id, to: main.id, quantity: 4 }),
    ]);
    const { stock, at } = await placesOf(user, cup.id);
    expect(stock).toBe((at.Main ?? 0) + (at.A ?? 0) + (at.B ?? 0));
    expect(Object.values(at).every((quantity) => quantity > 0)).toBe(true);
  });
});

describe('who may move stock', () => {
  it('lets the stock role and editors move, and refuses viewers', async () => {
    const owner = await member(server, 'Owner');
    const { id } = await newCatalogue(server, owner);
    const base = `/api/catalogues/${id}`;
    const bin = await api(server, owner, 'POST', `${base}/locations`, {
      name: 'Bin',
      parentId: null,
    });
    const binId = (bin.json() as { location: Location }).location.id;
    const product = productOf(await createIn(server, owner, id, { stock: '5' })).id;
    for (const role of ['stock', 'editor', 'viewer'] as const) {
      const someone = await member(server, role);
      await addMember(server, id, someone, role);
      const res = await api(server, someone, 'POST', `${base}/stock/transfers`, {
        productId: product,
        from: id,
        to: binId,
        quantity: 1,
      });
      expect(res.statusCode, `${role}: ${res.body}`).toBe(role === 'viewer' ? 403 : 200);
    }
  });
});
