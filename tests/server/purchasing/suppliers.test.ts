import { describe, expect, it } from 'vitest';
import type { Product } from '../../../src/shared/schemas/products.js';
import { SUP, type Supplier } from '../../../src/shared/schemas/purchasing/suppliers.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { createProduct, getProduct, UNKNOWN_ID } from '../support/products.js';

const server = await build();

const inject = (
  who: SignedIn,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => server.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

async function supplier(who: SignedIn, body: object) {
  const res = await inject(who, 'POST', '/api/suppliers', body);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { supplier: Supplier }).supplier;
}

describe('suppliers', () => {
  it('are made, read, edited and deleted, names unique whatever the case', async () => {
    const user = await signIn(server);
    const acme = await supplier(user, { name: 'Acme', email: 'Orders@Acme.test', phone: '555' });
    expect(acme).toMatchObject({
      name: 'Acme',
      email: 'orders@acme.test',
      phone: '555',
      notes: null,
    });
    const twice = await inject(user, 'POST', '/api/suppliers', { name: 'ACME' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ message: SUP.nameTaken });
    const bad = await inject(user, 'POST', '/api/suppliers', { name: 'X', email: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(SUP.emailInvalid);

    const edited = await inject(user, 'PATCH', `/api/suppliers/${acme.id}`, {
      notes: 'Ships Tuesdays',
      phone: null,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().supplier).toMatchObject({ notes: 'Ships Tuesdays', phone: null });
    const list = (await inject(user, 'GET', '/api/suppliers')).json() as { suppliers: Supplier[] };
    expect(list.suppliers.map((each) => each.name)).toEqual(['Acme']);

    const other = await signIn(server);
    expect((await inject(other, 'GET', `/api/suppliers/${acme.id}`)).statusCode).toBe(404);
    expect((await inject(user, 'DELETE', `/api/suppliers/${acme.id}`)).statusCode).toBe(200);
    expect((await inject(user, 'GET', `/api/suppliers/${acme.id}`)).statusCode).toBe(404);
  });

  it("set a product's suppliers, one preferred at most, shown on the product", async () => {
    const user = await signIn(server);
    const acme = await supplier(user, { name: 'Acme' });
    const bolt = await supplier(user, { name: 'Bolt & Co' });
    const cup = await createProduct(server, user, { name: 'Cup', stock: '1' });
    const url = `/api/products/${cup.id}/suppliers`;

    const two = await inject(user, 'PUT', url, {
      suppliers: [
        { supplierId: acme.id, supplierSku: 'A-1', cost: 1.5, preferred: true },
        { supplierId: bolt.id, supplierSku: 'B-1', cost: '1.25', preferred: true },
      ],
    });
    expect(two.statusCode).toBe(400);
    expect(two.json().message).toBe(SUP.onePreferred);

    const saved = await inject(user, 'PUT', url, {
      suppliers: [
        { supplierId: bolt.id, supplierSku: 'B-1', cost: '1.25', preferred: false },
        { supplierId: acme.id, supplierSku: 'A-1', cost: 1.5, preferred: true },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { product } = (await getProduct(server, user, cup.id)).json() as { product: Product };
    expect(product.suppliers).toEqual([
      { supplierId: acme.id, name: 'Acme', supplierSku: 'A-1', cost: 1.5, preferred: true },
      { supplierId: bolt.id, name: 'Bolt & Co', supplierSku: 'B-1', cost: 1.25, preferred: false },
    ]);

    const unknown = await inject(user, 'PUT', url, {
      suppliers: [{ supplierId: UNKNOWN_ID, cost: null }],
    });
    expect(unknown.statusCode).toBe(404);
    const notMine = await inject(await signIn(server), 'PUT', url, { suppliers: [] });
    expect(notMine.statusCode).toBe(404);

    // Deleting a supplier takes it off its products.
    expect((await inject(user, 'DELETE', `/api/suppliers/${bolt.id}`)).statusCode).toBe(200);
    const after = (await getProduct(server, user, cup.id)).json() as { product: Product };
    expect(after.product.suppliers?.map((each) => each.name)).toEqual(['Acme']);
  });
});
