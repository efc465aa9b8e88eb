import { describe, expect, it } from 'vitest';
import { M, T, V } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import {
  allProducts,
  createProduct,
  csvText,
  exportCsv,
  importCsv,
  getProduct,
  listProducts,
  lookupCode,
  patchProduct,
  postProduct,
  productCount,
  validFields,
} from '../support/products.js';

/** A UPC-A and the same code as EAN-13 and GTIN-14, with a right check digit. */
const UPC_A = '012345678905';
const EAN_13 = '0012345678905';
const GTIN_14 = '00012345678905';

describe('product codes: SKU and barcode', async () => {
  const server = await build();
  const json = (
    user: { headers: Record<string, string> },
    method: 'POST' | 'PATCH',
    url: string,
    payload: object,
  ) => server.app.inject({ method, url, headers: user.headers, payload });

  it('stores both, trimmed and normalised, and shows them on the product and in the list', async () => {
    const user = await signIn(server);
    const res = await postProduct(server, user, {
      ...validFields,
      sku: '  LAMP-01 ',
      barcode: EAN_13,
    });
    expect(res.statusCode).toBe(201);
    const { product } = res.json();
    expect(product).toMatchObject({ sku: 'LAMP-01', barcode: UPC_A });
    expect((await getProduct(server, user, product.id)).json().product).toMatchObject({
      sku: 'LAMP-01',
      barcode: UPC_A,
    });
    server.clock.advance(1000);
    const plain = await createProduct(server, user, { name: 'No codes' });
    expect(plain).toMatchObject({ sku: null, barcode: null });
    const items = (await listProducts(server, user)).json().products;
    expect(items.map((p: { sku: unknown; barcode: unknown }) => [p.sku, p.barcode])).toEqual([
      [null, null],
      ['LAMP-01', UPC_A],
    ]);
  });

  it('takes JSON too; on an edit an empty value or null clears a code and absence keeps it', async () => {
    const user = await signIn(server);
    const created = await json(user, 'POST', '/api/products', {
      name: 'Lamp',
      price: 5,
      stock: 1,
      description: 'x',
      sku: 'A-1',
      barcode: 'ABC-123',
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json().product;
    const kept = await json(user, 'PATCH', `/api/products/${id}`, { name: 'Lamp 2' });
    expect(kept.json().product).toMatchObject({ sku: 'A-1', barcode: 'ABC-123' });
    const cleared = await json(user, 'PATCH', `/api/products/${id}`, { sku: null, barcode: '' });
    expect(cleared.json().product).toMatchObject({ sku: null, barcode: null });
    const set = await patchProduct(server, user, id, { barcode: '96385074' });
    expect(set.json().product).toMatchObject({ sku: null, barcode: '96385074' });
    const emptied = await patchProduct(server, user, id, { barcode: '' });
    expect(emptied.json().product.barcode).toBeNull();
  });

  it('refuses a wrong GTIN check digit, a code too long, control characters, non-text', async () => {
    const user = await signIn(server);
    for (const [fields, path, message] of [
      [{ barcode: '0012345678904' }, 'barcode', T.barcodeCheckDigit(5)],
      [{ barcode: '012345678900' }, 'barcode', T.barcodeCheckDigit(5)],
      [{ barcode: '96385071' }, 'barcode', T.barcodeCheckDigit(4)],
      [{ barcode: 'x'.repeat(65) }, 'barcode', V.barcodeMax],
      [{ barcode: 'café' }, 'barcode', V.barcodeAscii],
      [{ sku: 'é'.repeat(65) }, 'sku', V.skuMax],
      [{ sku: 'a\u0007b' }, 'sku', V.skuPrintable],
    ] as const) {
      const res = await postProduct(server, user, { ...validFields, ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().errors).toEqual([{ path, message }]);
    }
    const number = await json(user, 'POST', '/api/products', { ...validFields, barcode: 12345670 });
    expect(number.json().errors).toEqual([{ path: 'barcode', message: V.barcodeText }]);
    // 64 characters is fine: the limit counts characters, not bytes.
    expect(
      (await postProduct(server, user, { ...validFields, sku: 'é'.repeat(64) })).statusCode,
    ).toBe(201);
    expect(await productCount(server)).toBeGreaterThan(0);
  });

  it('answers 409 for a code another product of the catalogue has, and stores nothing', async () => {
    const user = await signIn(server);
    const other = await signIn(server);
    const first = await createProduct(server, user, { sku: 'Shelf-7', barcode: UPC_A });
    const second = await createProduct(server, user, { name: 'Second' });
    const before = await productCount(server);
    for (const [fields, message] of [
      [{ sku: 'SHELF-7' }, M.skuTaken],
      [{ sku: 'shelf-7' }, M.skuTaken],
      [{ barcode: EAN_13 }, M.barcodeTaken],
      [{ barcode: GTIN_14 }, M.barcodeTaken],
    ] as const) {
      const res = await postProduct(server, user, { ...validFields, ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(409);
      expect(res.json()).toEqual({ message });
      const edit = await patchProduct(server, user, second.id, { name: 'Renamed', ...fields });
      expect(edit.statusCode).toBe(409);
      expect(edit.json()).toEqual({ message });
    }
    expect(await productCount(server)).toBe(before);
    expect((await getProduct(server, user, second.id)).json().product).toMatchObject({
      name: 'Second',
      sku: null,
      barcode: null,
    });
    // The product itself keeps its codes on an edit; another catalogue may hold the same ones.
    expect((await patchProduct(server, user, first.id, { sku: 'SHELF-7' })).statusCode).toBe(200);
    await createProduct(server, other, { sku: 'Shelf-7', barcode: UPC_A });
  });

  it('gives one success and one 409 when two writes of one code race', async () => {
    const user = await signIn(server);
    const target = await createProduct(server, user, { name: 'Target' });
    for (let round = 0; round < 5; round += 1) {
      const code = `RACE-${round}`;
      const results = await Promise.all([
        postProduct(server, user, { ...validFields, sku: code }),
        patchProduct(server, user, target.id, { sku: code.toLowerCase() }),
      ]);
      // Whichever commits first wins; the other is refused by the unique index, never a 500.
      const statuses = results.map((res) => res.statusCode);
      expect([
        [201, 409],
        [409, 200],
      ]).toContainEqual(statuses);
      const barcodes = await Promise.all([
        postProduct(server, user, { ...validFields, barcode: `R${round}` }),
        postProduct(server, user, { ...validFields, barcode: `R${round}` }),
      ]);
      expect(barcodes.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    }
  });

  it('looks a code up: any GTIN form, a SKU in any case, only in the caller’s catalogue', async () => {
    const user = await signIn(server);
    const other = await signIn(server);
    const lamp = await createProduct(server, user, { sku: 'Lamp-1', barcode: UPC_A });
    const shelf = await createProduct(server, user, { sku: 'ABC', barcode: 'X-99' });
    for (const code of [UPC_A, EAN_13, GTIN_14, 'lamp-1', ' LAMP-1 ']) {
      const res = await lookupCode(server, user, code);
      expect(res.statusCode, code).toBe(200);
      expect(res.json().product).toMatchObject({ id: lamp.id, sku: 'Lamp-1', barcode: UPC_A });
    }
    expect((await lookupCode(server, user, 'X-99')).json().product.id).toBe(shelf.id);
    // Non-GTIN barcodes are exact.
    expect((await lookupCode(server, user, 'x-99')).statusCode).toBe(404);
    for (const code of ['0012345678904', 'nothing']) {
      const res = await lookupCode(server, user, code);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: M.codeNotFound });
    }
    expect((await lookupCode(server, other, UPC_A)).statusCode).toBe(404);
    for (const [code, message] of [
      ['', V.codeRequired],
      ['   ', V.codeRequired],
      ['x'.repeat(65), V.codeMax],
    ] as const) {
      const res = await lookupCode(server, user, code);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const none = await server.app.inject({ url: '/api/products/lookup', headers: user.headers });
    expect(none.statusCode).toBe(400);
    // A lookup answered before a change is not served after it.
    await patchProduct(server, user, lamp.id, { sku: 'Lamp-2' });
    expect((await lookupCode(server, user, 'lamp-1')).statusCode).toBe(404);
  });

  it('finds an exact code through the list search, in any GTIN form', async () => {
    const user = await signIn(server);
    const lamp = await createProduct(server, user, { name: 'Lamp', sku: 'QX-778', barcode: UPC_A });
    await createProduct(server, user, { name: 'Other' });
    for (const q of ['QX-778', 'qx-778', UPC_A, EAN_13, GTIN_14]) {
      const items = (await listProducts(server, user, `q=${q}`)).json().products;
      expect(
        items.map((p: { id: string }) => p.id),
        q,
      ).toEqual([lamp.id]);
    }
  });
});

describe('product codes in CSV export and import', async () => {
  const server = await build();

  it('exports sku and barcode after the times, and an import of the export keeps them', async () => {
    const user = await signIn(server);
    await createProduct(server, user, { name: 'Lamp', sku: '=SKU-1', barcode: EAN_13 });
    await createProduct(server, user, { name: 'Plain' });
    const csv = (await exportCsv(server, user, 'sort=name')).body.replace(/^\uFEFF/, '');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'id,name,price,stock,description,image,createdAt,updatedAt,sku,barcode,tags,cost,reorderPoint,reorderQuantity',
    );
    expect(lines[1]).toMatch(/,'=SKU-1,012345678905,,,,$/);
    expect(lines[2]).toMatch(/,,,,,,$/);
    const fresh = await signIn(server);
    const res = await importCsv(server, fresh, csv);
    expect(res.json()).toMatchObject({ created: 2, errors: [] });
    const items = await allProducts(server, fresh, 'sort=name');
    expect(items.map((p) => [p.name, p.sku, p.barcode])).toEqual([
      ['Lamp', '=SKU-1', UPC_A],
      ['Plain', null, null],
    ]);
    // Into the same catalogue the rows match their products (by id): their own codes are no
    // conflict, and nothing changes.
    const again = await importCsv(server, user, csv);
    expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 2, errors: [] });
  });

  it('matches a row without an id by its SKU (any case), then its barcode (any GTIN form)', async () => {
    const user = await signIn(server);
    const bySku = await createProduct(server, user, { name: 'Lamp', sku: 'LMP-1' });
    const byBarcode = await createProduct(server, user, { name: 'Desk', barcode: UPC_A });
    const csv = csvText([
      ['name', 'price', 'stock', 'description', 'sku', 'barcode'],
      ['Lamp', '1', '7', 'a', 'lmp-1', ''],
      ['Desk', '1', '9', 'b', '', GTIN_14],
    ]);
    const res = await importCsv(server, user, csv);
    expect(res.json()).toMatchObject({ created: 0, updated: 2, errors: [] });
    const items = await allProducts(server, user, 'sort=name');
    expect(items.map((p) => [p.id, p.stock, p.sku, p.barcode])).toEqual([
      [byBarcode.id, 9, null, UPC_A],
      [bySku.id, 7, 'lmp-1', null],
    ]);
  });

  it('refuses codes that are wrong, repeated in the file, or held by another product', async () => {
    const user = await signIn(server);
    await createProduct(server, user, { sku: 'HELD', barcode: 'B-HELD' });
    await createProduct(server, user, { sku: 'OTHER' });
    const csv = csvText([
      ['name', 'price', 'stock', 'description', 'barcode', 'sku'],
      ['A', '1', '1', 'a', UPC_A, 'a-1'],
      ['B', '1', '1', 'b', GTIN_14, 'A-1'],
      ['C', '1', '1', 'c', '0012345678904', ''],
      // Matches OTHER by its SKU, and would give it the barcode HELD has.
      ['D', '1', '1', 'd', 'B-HELD', 'other'],
      ['E', '1', '1', 'e', '', ''],
    ]);
    const res = await importCsv(server, user, csv, 'dryRun=true');
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toEqual([
      { line: 3, path: 'sku', message: T.importSkuRepeated(2) },
      { line: 3, path: 'barcode', message: T.importBarcodeRepeated(2) },
      { line: 4, path: 'barcode', message: T.barcodeCheckDigit(5) },
      { line: 5, path: 'barcode', message: M.barcodeTaken },
    ]);
    expect(res.json()).toMatchObject({ created: 2, updated: 0 });
    const real = await importCsv(server, user, csv);
    expect(real.statusCode).toBe(400);
    expect(await allProducts(server, user)).toHaveLength(2);
  });
});
