import { describe, expect, it, vi } from 'vitest';
import { build } from '../support/build.js';
import { createProduct, getProduct } from '../support/products.js';
import { signIn } from '../support/accounts.js';

const SECRET = 'owner-password-hash-that-must-never-leave';

// A presenter that lets a column slip through, as a careless change to a row's mapping would: the
// response schema must still be what decides what leaves the server, cached or not.
vi.mock('../../../src/server/features/products/present.js', async (importOriginal) => {
  const original =
    await importOriginal<typeof import('../../../src/server/features/products/present.js')>();
  return {
    toListItem: (...args: Parameters<typeof original.toListItem>) => ({
      ...original.toListItem(...args),
      secret: SECRET,
    }),
    toProduct: (...args: Parameters<typeof original.toProduct>) => ({
      ...original.toProduct(...args),
      secret: SECRET,
    }),
  };
});

describe('the response schema guards cached product reads', async () => {
  const server = await build();

  it('strips a field the schema does not name, from the first (built) and the cached answer', async () => {
    const user = await signIn(server);
    const created = await createProduct(server, user);
    for (let round = 0; round < 2; round += 1) {
      const list = await server.app.inject({ url: '/api/products', headers: user.headers });
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(SECRET);
      expect(list.json().products).toHaveLength(1);
      const one = await getProduct(server, user, created.id);
      expect(one.statusCode).toBe(200);
      expect(one.body).not.toContain(SECRET);
      expect(one.json().product.id).toBe(created.id);
    }
  });
});
