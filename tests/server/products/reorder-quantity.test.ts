import { describe, expect, it } from 'vitest';
import { REORDER_MESSAGES } from '../../../src/shared/reorder.js';
import type { ImportReport } from '../../../src/shared/schemas/catalogue.js';
import type { Product, ProductListItem } from '../../../src/shared/schemas/products.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { build } from '../support/build.js';
import {
  allProducts,
  createProduct,
  csvText,
  exportCsv,
  getProduct,
  importCsv,
  patchProduct,
  postProduct,
  validFields,
} from '../support/products.js';

describe('a product reorder quantity', async () => {
  const server = await build();
  const user = await signIn(server);
  const productOf = async (who: SignedIn, id: string) =>
    (await getProduct(server, who, id)).json().product as Product;
  const sendJson = (method: 'POST' | 'PATCH', url: string, body: object) =>
    server.app.inject({
      method,
      url,
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('is taken in JSON and forms, read back, kept, and cleared', async () => {
    const made = await sendJson('POST', '/api/products', {
      name: 'Tape',
      description: 'Roll',
      price: 2,
      stock: 30,
      reorderQuantity: 24,
    });
    expect(made.statusCode, made.body).toBe(201);
    const tape = (made.json() as { product: Product }).product;
    expect(tape.reorderQuantity).toBe(24);
    expect((await productOf(user, tape.id)).reorderQuantity).toBe(24);

    const glue = await createProduct(server, user, { name: 'Glue' });
    expect(glue.reorderQuantity).toBeNull();
    const formed = await postProduct(server, user, { ...validFields, reorderQuantity: '6' });
    expect(formed.json().product.reorderQuantity).toBe(6);

    const patched = await patchProduct(server, user, glue.id, { reorderQuantity: '12' });
    expect(patched.json().product.reorderQuantity).toBe(12);
    const kept = await patchProduct(server, user, glue.id, { name: 'Glue 2' });
    expect(kept.json().product.reorderQuantity).toBe(12);
    const blank = await patchProduct(server, user, glue.id, { reorderQuantity: '' });
    expect(blank.json().product.reorderQuantity).toBeNull();
    const nulled = await sendJson('PATCH', `/api/products/${tape.id}`, { reorderQuantity: null });
    expect(nulled.json().product.reorderQuantity).toBeNull();

    // The list shows what it shows: no cost, no reorder quantity.
    const listed = (await allProducts(server, user)) as ProductListItem[];
    expect(listed.every((each) => !('reorderQuantity' in each))).toBe(true);
  });

  it.each([[0], [-1], [1.5], ['ten'], [1_000_001], [true]])(
    'refuses a reorder quantity of %j, changing nothing',
    async (value) => {
      const res = await sendJson('POST', '/api/products', {
        ...{ name: 'X', description: 'Y', price: 1, stock: 1 },
        reorderQuantity: value,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(REORDER_MESSAGES.reorderQuantityInvalid);
      const glue = await createProduct(server, user, { name: 'Kept' });
      const patched = await patchProduct(server, user, glue.id, { reorderQuantity: String(value) });
      expect(patched.statusCode).toBe(400);
      expect((await productOf(user, glue.id)).reorderQuantity).toBeNull();
    },
  );

  it('leaves and comes back through the CSV: blank for none, kept when the column is absent', async () => {
    const owner = await signIn(server);
    const first = csvText([
      ['name', 'price', 'stock', 'description', 'reorderQuantity'],
      ['Rake', '9', '1', 'd', '5'],
      ['Hoe', '9', '1', 'd', ''],
    ]);
    expect((await importCsv(server, owner, first)).json()).toMatchObject({ created: 2 });
    const byName = new Map((await allProducts(server, owner)).map((p) => [p.name, p.id]));
    const rake = byName.get('Rake')!;
    const hoe = byName.get('Hoe')!;
    expect((await productOf(owner, rake)).reorderQuantity).toBe(5);
    expect((await productOf(owner, hoe)).reorderQuantity).toBeNull();

    const exported = (await exportCsv(server, owner)).body;
    const lines = exported.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]!.split(',').at(-1)).toBe('reorderQuantity');
    expect(
      lines
        .find((line) => line.startsWith(rake))!
        .split(',')
        .at(-1),
    ).toBe('5');
    expect(
      lines
        .find((line) => line.startsWith(hoe))!
        .split(',')
        .at(-1),
    ).toBe('');
    // The export read back changes nothing.
    expect((await importCsv(server, owner, exported)).json()).toMatchObject({
      updated: 0,
      unchanged: 2,
    });

    const changed = csvText([
      ['id', 'name', 'price', 'stock', 'description', 'reorderQuantity'],
      [rake, 'Rake', '9', '1', 'd', ''],
      [hoe, 'Hoe', '9', '1', 'd', '12'],
    ]);
    const planned = (await importCsv(server, owner, changed, 'dryRun=true')).json() as ImportReport;
    expect(planned.changes).toEqual([
      { line: 2, id: rake, fields: [{ field: 'reorderQuantity', before: 5, after: null }] },
      { line: 3, id: hoe, fields: [{ field: 'reorderQuantity', before: null, after: 12 }] },
    ]);
    expect((await importCsv(server, owner, changed)).json()).toMatchObject({ updated: 2 });
    expect((await productOf(owner, rake)).reorderQuantity).toBeNull();
    expect((await productOf(owner, hoe)).reorderQuantity).toBe(12);

    const without = csvText([
      ['id', 'name', 'price', 'stock', 'description'],
      [hoe, 'Hoe', '9', '3', 'd'],
    ]);
    expect((await importCsv(server, owner, without)).json()).toMatchObject({ updated: 1 });
    expect((await productOf(owner, hoe)).reorderQuantity).toBe(12);

    const bad = csvText([
      ['name', 'price', 'stock', 'description', 'reorderQuantity'],
      ['Spade', '9', '1', 'd', '0'],
      ['Fork', '9', '1', 'd', 'many'],
    ]);
    const refused = (await importCsv(server, owner, bad)).json() as ImportReport;
    expect(refused.errors).toEqual([
      { line: 2, path: 'reorderQuantity', message: REORDER_MESSAGES.reorderQuantityInvalid },
      { line: 3, path: 'reorderQuantity', message: REORDER_MESSAGES.reorderQuantityInvalid },
    ]);
    expect(await allProducts(server, owner)).toHaveLength(2);
  });
});
