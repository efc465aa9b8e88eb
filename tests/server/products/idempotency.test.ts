import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { M, T } from '../../../src/shared/messages.js';
import type { MovementsResponse } from '../../../src/shared/schemas/catalogue.js';
import { build, watchAnswersOf } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { createProduct, getMovements, getProduct, listProducts } from '../support/products.js';

describe('Idempotency-Key on product writes', async () => {
  const server = await build();
  const user = await signIn(server);
  const other = await signIn(server);

  const send = (
    who: SignedIn,
    key: string | undefined,
    request: { method: 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object },
  ) =>
    server.app.inject({
      ...request,
      headers: { ...who.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    });
  const adjust = (who: SignedIn, id: string, key: string | undefined, body: object) =>
    send(who, key, { method: 'POST', url: `/api/products/${id}/stock`, payload: body });
  const stockOf = async (who: SignedIn, id: string) =>
    (await getProduct(server, who, id)).json().product.stock as number;
  const movementCount = async (id: string) =>
    ((await getMovements(server, user, id)).json() as MovementsResponse).movements.length;

  it('applies the same key sent 20 times at once exactly once, answering each alike', async () => {
    const product = await createProduct(server, user, { stock: '30' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => adjust(user, product.id, 'twenty-at-once', { delta: -1 })),
    );
    expect(new Set(answers.map((res) => res.statusCode))).toEqual(new Set([200]));
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    expect(answers[0]!.json().product.stock).toBe(29);
    expect(await stockOf(user, product.id)).toBe(29);
    expect(await movementCount(product.id)).toBe(2);
    expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true').length).toBe(19);
  });

  it('gives the first answer again later, and changes nothing more', async () => {
    const product = await createProduct(server, user, { stock: '5' });
    const first = await adjust(user, product.id, 'later', { delta: 2 });
    server.clock.advance(60_000);
    await adjust(user, product.id, undefined, { delta: 1 });
    const again = await adjust(user, product.id, 'later', { delta: 2 });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await stockOf(user, product.id)).toBe(8);
  });

  it('refuses the same key with another body, route or product with 422', async () => {
    const product = await createProduct(server, user, { stock: '5' });
    const second = await createProduct(server, user, { stock: '5' });
    await adjust(user, product.id, 'one-change', { delta: 1 });
    for (const res of [
      await adjust(user, product.id, 'one-change', { delta: 2 }),
      await adjust(user, second.id, 'one-change', { delta: 1 }),
      await send(user, 'one-change', { method: 'DELETE', url: `/api/products/${product.id}` }),
    ]) {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: M.idempotencyKeyReused });
    }
    expect(await stockOf(user, product.id)).toBe(6);
    expect(await stockOf(user, second.id)).toBe(5);
  });

  it("keeps each user's keys apart", async () => {
    const mine = await createProduct(server, user, { stock: '5' });
    const theirs = await createProduct(server, other, { stock: '5' });
    expect((await adjust(user, mine.id, 'shared-key', { delta: 1 })).statusCode).toBe(200);
    const res = await adjust(other, theirs.id, 'shared-key', { delta: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await stockOf(other, theirs.id)).toBe(8);
    expect(await stockOf(user, mine.id)).toBe(6);
  });

  it('refuses a key that is empty, too long or not printable ASCII with 400', async () => {
    const product = await createProduct(server, user, { stock: '5' });
    for (const key of ['', 'k'.repeat(256), 'clé', 'tab\there']) {
      const res = await adjust(user, product.id, key, { delta: 1 });
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      // The product's own words whatever is wrong with it, not the validator's.
      expect(res.json().message, JSON.stringify(key)).toBe(M.idempotencyKeyInvalid);
    }
    expect((await adjust(user, product.id, 'k'.repeat(255), { delta: 1 })).statusCode).toBe(200);
    expect((await adjust(user, product.id, ' ~!', { delta: 1 })).statusCode).toBe(200);
    expect(await stockOf(user, product.id)).toBe(7);
  });

  it('answers a stock refusal (409) again on a replay, even once the stock would allow it', async () => {
    const product = await createProduct(server, user, { stock: '1' });
    const first = await adjust(user, product.id, 'too-many', { delta: -3 });
    expect(first.statusCode).toBe(409);
    await adjust(user, product.id, undefined, { delta: 10 });
    const again = await adjust(user, product.id, 'too-many', { delta: -3 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: T.stockBelowZero(1, -3) });
    expect(await stockOf(user, product.id)).toBe(11);
  });

  it('does not keep a 404: the same key works once the request can succeed', async () => {
    const res = await adjust(user, '00000000-0000-4000-8000-000000000000', 'missing', {
      delta: 1,
    });
    expect(res.statusCode).toBe(404);
  });

  it('creates, edits and deletes once per key', async () => {
    const payload = { name: 'Keyed', description: 'Made once', price: 3, stock: 4 };
    const create = () => send(user, 'create-1', { method: 'POST', url: '/api/products', payload });
    const [a, b] = await Promise.all([create(), create()]);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json()).toEqual(a.json());
    const { id } = a.json().product as { id: string };
    const listed = (await listProducts(server, user, 'q=Keyed')).json().products as unknown[];
    expect(listed).toHaveLength(1);

    const edit = () =>
      send(user, 'edit-1', { method: 'PATCH', url: `/api/products/${id}`, payload: { stock: 9 } });
    expect((await edit()).json().product.stock).toBe(9);
    await adjust(user, id, undefined, { delta: 1 });
    expect((await edit()).json().product.stock).toBe(9);
    expect(await stockOf(user, id)).toBe(10);

    const remove = () => send(user, 'delete-1', { method: 'DELETE', url: `/api/products/${id}` });
    const [gone, goneAgain] = await Promise.all([remove(), remove()]);
    expect([gone.statusCode, goneAgain.statusCode]).toEqual([200, 200]);
    expect((await remove()).json()).toEqual({ message: M.productDeleted });
  });

  it('deletes in bulk once per key', async () => {
    const first = await createProduct(server, user);
    const second = await createProduct(server, user);
    const payload = { ids: [first.id, second.id] };
    const bulk = () =>
      send(user, 'bulk-1', { method: 'POST', url: '/api/products/bulk-delete', payload });
    const [a, b] = await Promise.all([bulk(), bulk()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.json()).toEqual(a.json());
  });

  it('forgets a key after 24 hours', async () => {
    const product = await createProduct(server, user, { stock: '5' });
    await adjust(user, product.id, 'a-day', { delta: 1 });
    server.clock.advance(24 * 60 * 60_000 + 1);
    const res = await adjust(user, product.id, 'a-day', { delta: 1 });
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await stockOf(user, product.id)).toBe(7);
  });

  it('gives the first answer again from a new app on the same database', async () => {
    const product = await createProduct(server, user, { stock: '5' });
    const first = await adjust(user, product.id, 'restart', { delta: 1 });
    const restarted = await buildApp({
      config: server.config,
      database: server.database,
      clock: server.clock,
      rateLimits: { sensitive: 10_000, general: 10_000 },
    });
    const take = await watchAnswersOf(restarted);
    try {
      const again = await restarted.inject({
        method: 'POST',
        url: `/api/products/${product.id}/stock`,
        headers: { ...user.headers, 'idempotency-key': 'restart' },
        payload: { delta: 1 },
      });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(await stockOf(user, product.id)).toBe(6);
      expect(take()).toEqual([]);
    } finally {
      await restarted.close();
    }
  });
});
