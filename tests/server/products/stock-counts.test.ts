import { describe, expect, it } from 'vitest';
import { MAX_STOCK } from '../../../src/shared/constants.js';
import { M, V } from '../../../src/shared/messages.js';
import type { MovementsResponse } from '../../../src/shared/schemas/catalogue.js';
import { signIn } from '../support/accounts.js';
import { build } from '../support/build.js';
import {
  adjustStock,
  createProduct,
  getMovements,
  readMovements,
  UNKNOWN_ID,
} from '../support/products.js';

describe('stock counts and reasons', async () => {
  const server = await build();
  const user = await signIn(server);
  const movementsOf = (id: string, query = '') => readMovements(server, user, id, query);

  it('sets the stock to a count, whatever it was, recorded as a count', async () => {
    const product = await createProduct(server, user, { stock: '12' });
    await adjustStock(server, user, product.id, { delta: 5 });
    const res = await adjustStock(server, user, product.id, { count: 40, note: 'Shelf A' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: M.stockAdjusted, product: { stock: 40 } });
    const zero = await adjustStock(server, user, product.id, { count: 0, reason: 'damaged' });
    expect(zero.json().product.stock).toBe(0);
    const { movements } = await movementsOf(product.id);
    expect(movements.slice(0, 2)).toMatchObject([
      { source: 'count', oldStock: 40, newStock: 0, delta: -40, reason: 'damaged', note: null },
      {
        source: 'count',
        oldStock: 17,
        newStock: 40,
        delta: 23,
        reason: 'counted',
        note: 'Shelf A',
      },
    ]);
  });

  it('records a count that matches the stock too', async () => {
    const product = await createProduct(server, user, { stock: '7' });
    const res = await adjustStock(server, user, product.id, { count: 7 });
    expect(res.statusCode).toBe(200);
    const { movements } = await movementsOf(product.id);
    expect(movements[0]).toMatchObject({ source: 'count', oldStock: 7, newStock: 7, delta: 0 });
  });

  it('takes exactly one of delta or count, and checks count and reason', async () => {
    const product = await createProduct(server, user, { stock: '3' });
    for (const [body, message] of [
      [{}, V.deltaOrCount],
      [{ delta: 1, count: 4 }, V.deltaOrCount],
      [{ note: 'only a note' }, V.deltaOrCount],
      [{ count: -1 }, V.countInvalid],
      [{ count: 1.5 }, V.countInvalid],
      [{ count: '4' }, V.countInvalid],
      [{ count: null }, V.countInvalid],
      [{ count: MAX_STOCK + 1 }, V.countInvalid],
      [{ delta: 1, reason: 'stolen' }, V.reasonInvalid],
      [{ count: 1, reason: 5 }, V.reasonInvalid],
    ] as const) {
      const res = await adjustStock(server, user, product.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ message });
    }
    const { movements } = await movementsOf(product.id);
    expect(movements).toHaveLength(1);
    const top = await adjustStock(server, user, product.id, { count: MAX_STOCK });
    expect(top.json().product.stock).toBe(MAX_STOCK);
  });

  it('answers 404 for a count of an unknown or another user’s product', async () => {
    const product = await createProduct(server, user, { stock: '5' });
    const other = await signIn(server);
    for (const [who, id] of [
      [other, product.id],
      [user, UNKNOWN_ID],
    ] as const) {
      const res = await adjustStock(server, who, id, { count: 1 });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: M.productNotFound });
    }
  });

  it('keeps the reason of an adjustment, and filters the history by reason with its cursor', async () => {
    const product = await createProduct(server, user, { stock: '100' });
    for (let i = 0; i < 5; i += 1) {
      await adjustStock(server, user, product.id, { delta: -1, reason: 'sold' });
      await adjustStock(server, user, product.id, { delta: 2, reason: 'received' });
    }
    await adjustStock(server, user, product.id, { delta: 1 });
    const sold: string[] = [];
    let cursor: string | null = null;
    do {
      const page: MovementsResponse = await movementsOf(
        product.id,
        `reason=sold&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.movements.length).toBeLessThanOrEqual(2);
      sold.push(...page.movements.map((movement) => `${movement.reason} ${movement.delta}`));
      cursor = page.nextCursor;
    } while (cursor);
    expect(sold).toEqual(Array(5).fill('sold -1'));
    const all = await movementsOf(product.id);
    expect(all.movements[0]).toMatchObject({ reason: null, source: 'adjustment' });
    expect(all.movements.at(-1)).toMatchObject({ reason: null, source: 'create' });
    const bad = await getMovements(server, user, product.id, 'reason=stolen');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: V.reasonInvalid });
  });

  it('parallel counts each apply, and every movement starts where the one before ended', async () => {
    const product = await createProduct(server, user, { stock: '1' });
    const counts = Array.from({ length: 20 }, (_, i) => i * 3);
    const answers = await Promise.all(
      counts.map((count) => adjustStock(server, user, product.id, { count })),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(counts.map(() => 200));
    const { movements } = await movementsOf(product.id, 'limit=100');
    for (let i = 0; i < movements.length - 1; i += 1) {
      expect(movements[i]!.oldStock).toBe(movements[i + 1]!.newStock);
    }
  });
});
