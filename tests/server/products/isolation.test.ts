import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { jpeg, png } from '../support/images.js';
import {
  createProduct,
  fetchImage,
  getProduct,
  patchProduct,
  deleteProduct,
  withPlaces,
} from '../support/products.js';
import { signIn } from '../support/accounts.js';

describe('each user sees only their own catalogue', async () => {
  const server = await build();
  const alice = await signIn(server, 'Alice');
  const bob = await signIn(server, 'Bob');
  const secret = await createProduct(
    server,
    alice,
    { name: 'Secret prototype', description: 'Only Alice knows' },
    { data: await jpeg() },
  );
  await createProduct(server, bob, { name: 'Bob thing' });
  const notFound = { message: 'Product not found' };

  it("answers 404 (never 403) when reading another user's product", async () => {
    const res = await getProduct(server, bob, secret.id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(notFound);
  });

  it("answers 404 when updating another user's product, and changes nothing", async () => {
    const json = await server.app.inject({
      method: 'PATCH',
      url: `/api/products/${secret.id}`,
      headers: bob.headers,
      payload: { name: 'Mine now' },
    });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual(notFound);
    const form = await patchProduct(server, bob, secret.id, { stock: '0' }, { data: await png() });
    expect(form.statusCode).toBe(404);
    expect((await getProduct(server, alice, secret.id)).json().product).toEqual(withPlaces(secret));
  });

  it("answers 404 when deleting another user's product, which stays", async () => {
    const res = await deleteProduct(server, bob, secret.id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(notFound);
    expect((await getProduct(server, alice, secret.id)).statusCode).toBe(200);
    expect((await fetchImage(server, secret.image)).statusCode).toBe(200);
  });

  it("never lists another user's product, searched or not, under any sort", async () => {
    for (const query of ['', 'q=secret', 'q=alice', 'sort=name', 'sort=price-desc&limit=100']) {
      const res = await server.app.inject({
        method: 'GET',
        url: `/api/products?${query}`,
        headers: bob.headers,
      });
      const names = res.json().products.map((p: { name: string }) => p.name);
      expect(names).not.toContain('Secret prototype');
    }
    const own = await server.app.inject({
      method: 'GET',
      url: '/api/products',
      headers: bob.headers,
    });
    expect(own.json().products.map((p: { name: string }) => p.name)).toEqual(['Bob thing']);
  });
});
