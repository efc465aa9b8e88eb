import { describe, expect, it } from 'vitest';
import type { Location } from '../../../src/shared/schemas/locations/locations.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { adjustStock, createProduct } from '../support/products.js';

const server = await build();

async function newLocation(who: SignedIn, name: string, parentId: string | null) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/locations',
    headers: who.headers,
    payload: { name, parentId },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { location: Location }).location;
}

const exportStock = (who: SignedIn, base = '/api/products') =>
  server.app.inject({
    method: 'GET',
    url: `${base}/stock-by-location.csv`,
    headers: who.headers,
  });

describe('stock by location as CSV', () => {
  it('exports one row per product and location holding some, by name then path', async () => {
    const user = await signIn(server);
    const warehouse = await newLocation(user, 'Warehouse', null);
    const bin = await newLocation(user, 'Bin A', warehouse.id);
    const crate = await newLocation(user, 'Crate', null);
    const lamp = await createProduct(server, user, {
      name: 'Lamp, "desk"',
      stock: '2',
      sku: 'L-1',
      barcode: '0012345678905',
    });
    await adjustStock(server, user, lamp.id, { delta: 5, locationId: bin.id });
    const bolt = await createProduct(server, user, { name: 'Bolt', stock: '0' });
    await adjustStock(server, user, bolt.id, { delta: 1, locationId: crate.id });
    await createProduct(server, user, { name: 'Empty', stock: '0' });
    // Someone else's stock is not in it.
    const other = await signIn(server);
    await createProduct(server, other, { name: 'Theirs', stock: '9' });

    const res = await exportStock(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="stockroom-stock-by-location-2026-01-01.csv"',
    );
    expect(res.body).toBe(
      '\uFEFF' +
        [
          'id,sku,barcode,name,location,quantity',
          `${bolt.id},,,Bolt,Crate,1`,
          `${lamp.id},L-1,${lamp.barcode},"Lamp, ""desk""",Main,2`,
          `${lamp.id},L-1,${lamp.barcode},"Lamp, ""desk""",Warehouse / Bin A,5`,
        ].join('\r\n') +
        '\r\n',
    );
  });

  it('lists every product holding stock, each location once, in the list’s name order', async () => {
    const user = await signIn(server);
    const bin = await newLocation(user, 'Bin', null);
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const product = await createProduct(server, user, {
        name: `P${String(i).padStart(2, '0')}`,
        stock: '1',
      });
      await adjustStock(server, user, product.id, { delta: 2, locationId: bin.id });
      ids.push(product.id);
    }
    const res = await exportStock(user);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(1 + 24);
    expect(lines.slice(1).map((line) => line.split(',').slice(3).join(','))).toEqual(
      ids.flatMap((_, i) => {
        const name = `P${String(i).padStart(2, '0')}`;
        return [`${name},Bin,2`, `${name},Main,1`];
      }),
    );
  });
});
