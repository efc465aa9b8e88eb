import { describe, expect, it } from 'vitest';
import { BULK_DELETE_MAX } from '../../../src/shared/constants.js';
import { M, T, V } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { jpeg } from '../support/images.js';
import { signIn } from '../support/accounts.js';
import {
  adjustStock,
  allProducts,
  bulkDelete,
  createProduct,
  imageFiles,
  listProducts,
  UNKNOWN_ID,
} from '../support/products.js';

describe('bulk delete', async () => {
  const server = await build();

  it('deletes the products, their movements and, after the commit, their images', async () => {
    const user = await signIn(server);
    const keep = await createProduct(server, user, { name: 'Keep' }, { data: await jpeg() });
    const doomed = [
      await createProduct(server, user, { name: 'A' }, { data: await jpeg() }),
      await createProduct(server, user, { name: 'B' }),
      await createProduct(server, user, { name: 'C' }, { data: await jpeg() }),
    ];
    await adjustStock(server, user, doomed[1]!.id, { delta: 1 });
    expect(await imageFiles(server)).toHaveLength(6);
    // A list read before, kept in the response cache, must not outlive the delete.
    expect((await listProducts(server, user)).json().products).toHaveLength(4);

    const res = await bulkDelete(server, user, { ids: doomed.map((product) => product.id) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: T.productsDeleted(3), deleted: 3 });
    expect(
      (await listProducts(server, user)).json().products.map((p: { id: string }) => p.id),
    ).toEqual([keep.id]);
    expect(await imageFiles(server)).toHaveLength(2);
    const movements = await server.database.db
      .selectFrom('stock_movements')
      .select('product_id')
      .where(
        'product_id',
        'in',
        doomed.map((product) => product.id),
      )
      .execute();
    expect(movements).toEqual([]);
  });

  it("deletes nothing and answers 404 when one id is another user's, unknown or malformed", async () => {
    const user = await signIn(server);
    const other = await signIn(server);
    const mine = [await createProduct(server, user), await createProduct(server, user)];
    const theirs = await createProduct(server, other);
    for (const stranger of [theirs.id, UNKNOWN_ID, 'not-a-uuid']) {
      const res = await bulkDelete(server, user, { ids: [...mine.map((p) => p.id), stranger] });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: M.productsNotFound });
    }
    expect(await allProducts(server, user)).toHaveLength(2);
    expect(await allProducts(server, other)).toHaveLength(1);
  });

  it(`takes 1 to ${BULK_DELETE_MAX} distinct ids`, async () => {
    const user = await signIn(server);
    const product = await createProduct(server, user);
    const many = Array.from(
      { length: BULK_DELETE_MAX + 1 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    for (const [body, message] of [
      [{}, V.idsInvalid],
      [{ ids: [] }, V.idsInvalid],
      [{ ids: 'abc' }, V.idsInvalid],
      [{ ids: [1] }, V.idsInvalid],
      [{ ids: many }, V.idsInvalid],
      [{ ids: [product.id, product.id] }, V.idsRepeated],
    ] as const) {
      const res = await bulkDelete(server, user, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 50)).toBe(400);
      expect(res.json()).toMatchObject({ message });
    }
    expect(await allProducts(server, user)).toHaveLength(1);
    // The most it takes: 100 ids (here all unknown but one), refused as a whole.
    const hundred = [...many.slice(0, BULK_DELETE_MAX - 1), product.id];
    expect((await bulkDelete(server, user, { ids: hundred })).statusCode).toBe(404);
  });

  it(`deletes ${BULK_DELETE_MAX} products in one request`, async () => {
    const user = await signIn(server);
    const ids: string[] = [];
    for (let i = 0; i < BULK_DELETE_MAX; i += 1) ids.push((await createProduct(server, user)).id);
    const res = await bulkDelete(server, user, { ids });
    expect(res.json()).toEqual({
      message: T.productsDeleted(BULK_DELETE_MAX),
      deleted: BULK_DELETE_MAX,
    });
    expect(await allProducts(server, user)).toEqual([]);
  });
});
