import { describe, expect, it } from 'vitest';
import { M } from '../../../src/shared/messages.js';
import type { ActivityResponse } from '../../../src/shared/schemas/activity.js';
import type { Location } from '../../../src/shared/schemas/locations/locations.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import {
  allProducts,
  createProduct,
  csvText,
  deleteProduct,
  importCsv,
  lookupCode,
  patchProduct,
  postProduct,
  validFields,
} from '../support/products.js';

/** An EAN-8 and the same code as GTIN-14, with a right check digit. */
const EAN_8 = '12345670';
const GTIN_14 = '00000012345670';

/**
 * A location's code is never a product's SKU or barcode: the locations refuse a product's code,
 * and the products a location's, by the same rule (a SKU whatever the case, a barcode in any of
 * its GTIN forms), so a scan finds one thing.
 */
describe("a product's codes beside the locations' codes", async () => {
  const server = await build();

  async function locate(user: SignedIn, name: string, code?: string) {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/locations',
      headers: user.headers,
      payload: { name, ...(code ? { code } : {}) },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { location: Location }).location;
  }

  it('refuses a new product whose SKU or barcode is a location’s code, and stores nothing', async () => {
    const user = await signIn(server);
    const shelf = await locate(user, 'Shelf Z');
    await locate(user, 'Bin 8', EAN_8);
    for (const [fields, message] of [
      [{ sku: shelf.code }, M.skuIsLocation],
      [{ sku: shelf.code.toLowerCase() }, M.skuIsLocation],
      [{ barcode: shelf.code }, M.barcodeIsLocation],
      [{ barcode: GTIN_14 }, M.barcodeIsLocation],
      [{ sku: EAN_8 }, M.skuIsLocation],
    ] as const) {
      const res = await postProduct(server, user, { ...validFields, ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(409);
      expect(res.json()).toEqual({ message });
    }
    expect(await allProducts(server, user)).toHaveLength(0);
    const found = await lookupCode(server, user, shelf.code);
    expect(found.json()).toMatchObject({ location: { id: shelf.id } });
    // A barcode other than a GTIN is its exact text, as a location's code beside a barcode: the
    // same letters in another case are another code, which a scan tells apart.
    const other = await createProduct(server, user, { barcode: shelf.code.toLowerCase() });
    expect((await lookupCode(server, user, shelf.code)).json()).toMatchObject({
      location: { id: shelf.id },
    });
    expect((await lookupCode(server, user, other.barcode!)).json()).toMatchObject({
      product: { id: other.id },
    });
  });

  it('refuses an edit that gives a product a location’s code, and keeps the product as it was', async () => {
    const user = await signIn(server);
    const shelf = await locate(user, 'Shelf Y', 'SHELF-Y');
    await locate(user, 'Bin 9', EAN_8);
    const product = await createProduct(server, user, { sku: 'LAMP-1' });
    for (const [fields, message] of [
      [{ sku: 'shelf-y' }, M.skuIsLocation],
      [{ barcode: 'SHELF-Y' }, M.barcodeIsLocation],
      [{ barcode: GTIN_14 }, M.barcodeIsLocation],
    ] as const) {
      const res = await patchProduct(server, user, product.id, { name: 'Renamed', ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(409);
      expect(res.json()).toEqual({ message });
    }
    const [kept] = await allProducts(server, user);
    expect(kept).toMatchObject({ name: validFields.name, sku: 'LAMP-1', barcode: null });
    // Its own codes, and other edits, still go through.
    const edited = await patchProduct(server, user, product.id, { name: 'Lamp', sku: 'LAMP-1' });
    expect(edited.statusCode).toBe(200);
    expect((await lookupCode(server, user, shelf.code)).json()).toMatchObject({
      location: { id: shelf.id },
    });
  });

  it('makes a row of an import that carries a location’s code an error of its line', async () => {
    const user = await signIn(server);
    await locate(user, 'Shelf X', 'SHELF-X');
    await locate(user, 'Bin 10', EAN_8);
    const matched = await createProduct(server, user, { name: 'Matched', sku: 'M-1' });
    const csv = csvText([
      ['name', 'price', 'stock', 'description', 'sku', 'barcode'],
      ['A', '1', '1', 'a', 'shelf-x', ''],
      ['B', '1', '1', 'b', '', GTIN_14],
      ['C', '1', '1', 'c', 'C-1', ''],
      // Matches M-1 by its SKU, and would give it a location's code as its barcode.
      ['Matched', '1', '1', 'd', 'm-1', 'SHELF-X'],
    ]);
    const dry = await importCsv(server, user, csv, 'dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().errors).toEqual([
      { line: 2, path: 'sku', message: M.skuIsLocation },
      { line: 3, path: 'barcode', message: M.barcodeIsLocation },
      { line: 5, path: 'barcode', message: M.barcodeIsLocation },
    ]);
    expect(dry.json()).toMatchObject({ created: 1, updated: 0 });
    const real = await importCsv(server, user, csv);
    expect(real.statusCode).toBe(400);
    expect(await allProducts(server, user)).toEqual([
      expect.objectContaining({ id: matched.id, sku: 'M-1', barcode: null }),
    ]);
  });

  it('refuses to undo a delete whose product’s code a location took meanwhile', async () => {
    const user = await signIn(server);
    const product = await createProduct(server, user, { sku: 'GONE-1' });
    expect((await deleteProduct(server, user, product.id)).statusCode).toBe(200);
    await locate(user, 'Took it', 'gone-1');
    const log = await server.app.inject({
      method: 'GET',
      url: '/api/products/activity?kind=product.deleted&limit=1',
      headers: user.headers,
    });
    const [entry] = (log.json() as ActivityResponse).entries;
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/products/activity/${entry!.id}/undo`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'Cannot undo: the SKU GONE-1 is now used by a location',
    });
    expect(await allProducts(server, user)).toHaveLength(0);
  });
});
