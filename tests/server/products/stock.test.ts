import { describe, expect, it } from 'vitest';
import { MAX_STOCK, MOVEMENT_PAGE_DEFAULT, STOCK_NOTE_MAX } from '../../../src/shared/constants.js';
import { M, T, V } from '../../../src/shared/messages.js';
import type { MovementsResponse } from '../../../src/shared/schemas/catalogue.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import { build } from '../support/build.js';
import { signIn, userRow } from '../support/accounts.js';
import {
  adjustStock,
  createProduct,
  deleteProduct,
  getMovements,
  readMovements,
  getProduct,
  listProducts,
  patchProduct,
  UNKNOWN_ID,
} from '../support/products.js';

describe('stock adjustments', async () => {
  const server = await build();
  const user = await signIn(server);
  const stockOf = async (id: string) =>
    getProduct(server, user, id).then((res) => res.json().product.stock) as Promise<number>;

  it('adds and takes away, answering {message, product}', async () => {
    const product = await createProduct(server, user, { stock: '12' });
    server.clock.advance(5000);
    const res = await adjustStock(server, user, product.id, { delta: 5, note: ' Delivery ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: M.stockAdjusted,
      product: { ...product, stock: 17, updatedAt: '2026-01-01T00:00:05.000Z' },
    });
    const down = await adjustStock(server, user, product.id, { delta: -17 });
    expect(down.json().product.stock).toBe(0);
    expect(await stockOf(product.id)).toBe(0);
  });

  it('refuses a result below 0 with 409 and changes nothing', async () => {
    const product = await createProduct(server, user, { stock: '3' });
    const res = await adjustStock(server, user, product.id, { delta: -4 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: T.stockBelowZero(3, -4) });
    expect(await stockOf(product.id)).toBe(3);
    const movements = (await getMovements(server, user, product.id)).json() as MovementsResponse;
    expect(movements.movements.map((movement) => movement.source)).toEqual(['create']);
  });

  it(`refuses a result above ${MAX_STOCK} with 409`, async () => {
    const product = await createProduct(server, user, { stock: String(MAX_STOCK - 1) });
    const res = await adjustStock(server, user, product.id, { delta: 2 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: M.stockAboveMax });
    const full = await adjustStock(server, user, product.id, { delta: 1 });
    expect(full.json().product.stock).toBe(MAX_STOCK);
    // The largest step down from the top, and back.
    expect((await adjustStock(server, user, product.id, { delta: -MAX_STOCK })).statusCode).toBe(
      200,
    );
    expect((await adjustStock(server, user, product.id, { delta: MAX_STOCK })).statusCode).toBe(
      200,
    );
  });

  it('checks delta and note', async () => {
    const product = await createProduct(server, user);
    const neither = await adjustStock(server, user, product.id, {});
    expect(neither.statusCode).toBe(400);
    expect(neither.json()).toMatchObject({ message: V.deltaOrCount });
    for (const body of [
      { delta: 0 },
      { delta: 1.5 },
      { delta: '1' },
      { delta: null },
      { delta: MAX_STOCK + 1 },
      { delta: -MAX_STOCK - 1 },
    ]) {
      const res = await adjustStock(server, user, product.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ message: V.deltaInvalid });
    }
    for (const [note, message] of [
      ['x'.repeat(STOCK_NOTE_MAX + 1), V.noteInvalid],
      [5, V.noteInvalid],
      ['a\u0000b', V.textNul],
    ] as const) {
      const res = await adjustStock(server, user, product.id, { delta: 1, note });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message });
    }
    const longest = await adjustStock(server, user, product.id, {
      delta: 1,
      note: 'n'.repeat(STOCK_NOTE_MAX),
    });
    expect(longest.statusCode).toBe(200);
    expect(await stockOf(product.id)).toBe(13);
  });

  it("answers 404 for another user's product, an unknown id and a malformed one", async () => {
    const product = await createProduct(server, user, { stock: '5' });
    const other = await signIn(server);
    for (const [who, id, body] of [
      [other, product.id, { delta: 1 }],
      [user, UNKNOWN_ID, { delta: 1 }],
      [user, 'not-a-uuid', { delta: 1 }],
      // An unknown product is answered as such, whatever the body.
      [user, UNKNOWN_ID, {}],
    ] as const) {
      const res = await adjustStock(server, who, id, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: M.productNotFound });
    }
    expect(await stockOf(product.id)).toBe(5);
  });

  it('shows the new stock in a list read after the adjustment', async () => {
    const product = await createProduct(server, user, { name: 'Cached', stock: '5' });
    const stockInList = async () =>
      ((await listProducts(server, user, 'q=cached')).json().products as Product[]).find(
        (item) => item.id === product.id,
      )!.stock;
    expect(await stockInList()).toBe(5);
    expect(await stockInList()).toBe(5); // from the response cache
    await adjustStock(server, user, product.id, { delta: 3 });
    expect(await stockInList()).toBe(8);
    expect(await stockOf(product.id)).toBe(8);
  });
});

describe('stock adjustments in parallel, over HTTP', async () => {
  const server = await build();
  const user = await signIn(server);
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const adjust = (id: string, delta: number) =>
    fetch(`${base}/api/products/${id}/stock`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ delta }),
    });

  it('100 parallel +1 leave the stock exactly 100 higher, with 100 movements', async () => {
    const product = await createProduct(server, user, { stock: '7' });
    const answers = await Promise.all(Array.from({ length: 100 }, () => adjust(product.id, 1)));
    expect(answers.map((res) => res.status)).toEqual(Array(100).fill(200));
    const final = (await getProduct(server, user, product.id)).json().product.stock;
    expect(final).toBe(107);
    // Every answer saw a distinct stock: each change applied to the one before it.
    const seen = await Promise.all(
      answers.map(
        async (res) => ((await res.json()) as { product: { stock: number } }).product.stock,
      ),
    );
    expect(new Set(seen).size).toBe(100);
    const movements: MovementsResponse['movements'] = [];
    let cursor: string | null = null;
    do {
      const page = (
        await getMovements(
          server,
          user,
          product.id,
          `limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        )
      ).json() as MovementsResponse;
      movements.push(...page.movements);
      cursor = page.nextCursor;
    } while (cursor);
    expect(movements).toHaveLength(101);
    // Newest first, each one continuing from the one before it.
    for (let i = 0; i < 100; i += 1) {
      expect(movements[i]).toMatchObject({ delta: 1, source: 'adjustment' });
      expect(movements[i]!.oldStock).toBe(movements[i + 1]!.newStock);
      expect(movements[i]!.newStock).toBe(106 - i + 1);
    }
  });

  it('parallel -1 never take the stock below 0', async () => {
    const product = await createProduct(server, user, { stock: '10' });
    const answers = await Promise.all(Array.from({ length: 30 }, () => adjust(product.id, -1)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(20).fill(409)]);
    expect((await getProduct(server, user, product.id)).json().product.stock).toBe(0);
  });
});

describe('stock movements', async () => {
  const server = await build();
  const user = await signIn(server);
  const movementsOf = (id: string, query = '') => readMovements(server, user, id, query);

  it('records creation, edits that change the stock, and adjustments, newest first', async () => {
    // Who made each change: the signed-in user, by name.
    const actor = { id: (await userRow(server, user.email))!.id, name: user.name };
    const product = await createProduct(server, user, { stock: '4' });
    server.clock.advance(1000);
    await patchProduct(server, user, product.id, { name: 'Renamed' }); // stock unchanged: none
    await patchProduct(server, user, product.id, { stock: '4' }); // the same stock: none
    await patchProduct(server, user, product.id, { stock: '9' });
    server.clock.advance(1000);
    await adjustStock(server, user, product.id, { delta: -2, note: 'Sold at the fair' });
    const { movements, nextCursor } = await movementsOf(product.id);
    expect(nextCursor).toBeNull();
    expect(movements).toEqual([
      {
        id: expect.any(String),
        productId: product.id,
        createdAt: '2026-01-01T00:00:02.000Z',
        oldStock: 9,
        newStock: 7,
        delta: -2,
        source: 'adjustment',
        reason: null,
        note: 'Sold at the fair',
        countId: null,
        purchaseOrderId: null,
        actor,
      },
      {
        id: expect.any(String),
        productId: product.id,
        createdAt: '2026-01-01T00:00:01.000Z',
        oldStock: 4,
        newStock: 9,
        delta: 5,
        source: 'edit',
        reason: null,
        note: null,
        countId: null,
        purchaseOrderId: null,
        actor,
      },
      {
        id: expect.any(String),
        productId: product.id,
        createdAt: '2026-01-01T00:00:00.000Z',
        oldStock: 0,
        newStock: 4,
        delta: 4,
        source: 'create',
        reason: null,
        note: null,
        countId: null,
        purchaseOrderId: null,
        actor,
      },
    ]);
  });

  it(`pages with limit (default ${MOVEMENT_PAGE_DEFAULT}) and cursor`, async () => {
    const product = await createProduct(server, user, { stock: '0' });
    for (let i = 1; i <= 24; i += 1) await adjustStock(server, user, product.id, { delta: i });
    const first = await movementsOf(product.id);
    expect(first.movements).toHaveLength(MOVEMENT_PAGE_DEFAULT);
    expect(first.movements[0]!.delta).toBe(24);
    const second = await movementsOf(product.id, `cursor=${first.nextCursor}`);
    expect(second.movements.map((movement) => movement.delta)).toEqual([4, 3, 2, 1, 0]);
    expect(second.nextCursor).toBeNull();
    const small = await movementsOf(product.id, 'limit=3');
    expect(small.movements.map((movement) => movement.delta)).toEqual([24, 23, 22]);
    const next = await movementsOf(product.id, `limit=3&cursor=${small.nextCursor}`);
    expect(next.movements.map((movement) => movement.delta)).toEqual([21, 20, 19]);
  });

  it('refuses a bad limit or cursor, and shows no other user’s history', async () => {
    const product = await createProduct(server, user);
    for (const [query, message] of [
      ['limit=0', V.movementLimitInvalid],
      ['limit=101', V.movementLimitInvalid],
      ['limit=abc', V.movementLimitInvalid],
      ['cursor=nonsense', V.cursorInvalid],
      [`cursor=${Buffer.from('[1.5]').toString('base64url')}`, V.cursorInvalid],
    ]) {
      const res = await getMovements(server, user, product.id, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ message });
    }
    const other = await signIn(server);
    for (const id of [product.id, UNKNOWN_ID, 'nope']) {
      const res = await getMovements(server, other, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: M.productNotFound });
    }
  });

  it('deletes a product’s movements with it', async () => {
    const product = await createProduct(server, user);
    await adjustStock(server, user, product.id, { delta: 1 });
    const count = async () =>
      (
        await server.database.db
          .selectFrom('stock_movements')
          .select('id')
          .where('product_id', '=', product.id)
          .execute()
      ).length;
    expect(await count()).toBe(2);
    expect((await deleteProduct(server, user, product.id)).statusCode).toBe(200);
    expect(await count()).toBe(0);
    expect((await getMovements(server, user, product.id)).statusCode).toBe(404);
  });
});
