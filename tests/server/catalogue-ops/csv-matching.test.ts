import { describe, expect, it } from 'vitest';
import { T, V } from '../../../src/shared/messages.js';
import { REORDER_MESSAGES } from '../../../src/shared/reorder.js';
import type { ImportReport } from '../../../src/shared/schemas/catalogue.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import { signIn } from '../support/accounts.js';
import { build } from '../support/build.js';
import { jpeg } from '../support/images.js';
import {
  allProducts,
  createProduct,
  csvText,
  exportCsv,
  getProduct,
  importCsv,
  patchProduct,
  postProduct,
  readMovements,
  validFields,
} from '../support/products.js';

const HEADER = ['id', 'name', 'price', 'stock', 'description'];

describe('CSV import that matches existing products', async () => {
  const server = await build();
  const productOf = async (user: Awaited<ReturnType<typeof signIn>>, id: string) =>
    (await getProduct(server, user, id)).json().product as Product;

  it('an export imported again updates nothing and duplicates nothing', async () => {
    const user = await signIn(server);
    const pictured = await createProduct(server, user, { name: 'Lamp' }, { data: await jpeg() });
    const tagged = await createProduct(server, user, { name: 'Rake' });
    await patchProduct(server, user, tagged.id, { tags: 'Garden', cost: '3.5', reorderPoint: '4' });
    await createProduct(server, user, { name: 'Chair, oak', description: '=SUM(1)' });
    const csv = (await exportCsv(server, user)).body;

    for (const query of ['dryRun=true', '']) {
      const res = await importCsv(server, user, csv, query);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        message: query ? T.importPlanned(0, 0, 3) : T.importDone(0, 0, 3),
        created: 0,
        updated: 0,
        unchanged: 3,
        errors: [],
      });
    }
    expect(await allProducts(server, user)).toHaveLength(3);
    expect((await productOf(user, pictured.id)).image).toBe(pictured.image);
    expect(await productOf(user, tagged.id)).toMatchObject({
      tags: ['Garden'],
      cost: 3.5,
      reorderPoint: 4,
    });
    expect((await productOf(user, pictured.id)).reorderPoint).toBeNull();
  });

  it('lists what a dry run would change, then updates in place: image and history kept', async () => {
    const user = await signIn(server);
    const lamp = await createProduct(
      server,
      user,
      { name: 'Lamp', price: '10.00', stock: '4' },
      { data: await jpeg() },
    );
    const csv = csvText([
      HEADER,
      [lamp.id, 'Lamp', '$14.00', '9', lamp.description],
      ['', 'New rug', '1,234.50', '2', 'Wool'],
    ]);
    const dry = await importCsv(server, user, csv, 'dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toEqual({
      message: T.importPlanned(1, 1, 0),
      created: 1,
      updated: 1,
      unchanged: 0,
      errors: [],
      changes: [
        {
          line: 2,
          id: lamp.id,
          fields: [
            { field: 'price', before: 10, after: 14 },
            { field: 'stock', before: 4, after: 9 },
          ],
        },
      ],
    });
    expect(await productOf(user, lamp.id)).toMatchObject({ price: 10, stock: 4 });

    const res = await importCsv(server, user, csv);
    expect(res.json()).toMatchObject({
      message: T.importDone(1, 1, 0),
      created: 1,
      updated: 1,
      unchanged: 0,
    });
    const updated = await productOf(user, lamp.id);
    expect(updated).toMatchObject({ price: 14, stock: 9, image: lamp.image });
    const { movements } = await readMovements(server, user, lamp.id);
    expect(movements.map((m) => [m.source, m.oldStock, m.newStock])).toEqual([
      ['import', 4, 9],
      ['create', 0, 4],
    ]);
    const names = (await allProducts(server, user)).map((product) => product.name).sort();
    expect(names).toEqual(['Lamp', 'New rug']);
  });

  it('matches=skip leaves matched products, matches=copy creates copies', async () => {
    const user = await signIn(server);
    const lamp = await createProduct(server, user, { name: 'Lamp', stock: '4' });
    const csv = csvText([HEADER, [lamp.id, 'Lamp 2', '1.00', '1', 'd']]);
    const skip = await importCsv(server, user, csv, 'matches=skip');
    expect(skip.json()).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect(await productOf(user, lamp.id)).toMatchObject({ name: 'Lamp', stock: 4 });
    const copy = await importCsv(server, user, csv, 'matches=copy');
    expect(copy.json()).toMatchObject({ created: 1, updated: 0, unchanged: 0 });
    const names = (await allProducts(server, user)).map((product) => product.name).sort();
    expect(names).toEqual(['Lamp', 'Lamp 2']);
    const bad = await importCsv(server, user, csv, 'matches=merge');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: V.matchesInvalid });
  });

  it('creates rows whose id is unknown or another user’s; refuses two rows for one product', async () => {
    const user = await signIn(server);
    const other = await signIn(server);
    const theirs = await createProduct(server, other, { name: 'Theirs' });
    const mine = await createProduct(server, user, { name: 'Mine' });
    const csv = csvText([
      HEADER,
      [theirs.id, 'Theirs', '1', '1', 'd'],
      ['not-an-id', 'Odd', '1', '1', 'd'],
      [mine.id, 'Mine', '2', '1', 'd'],
      [mine.id, 'Mine again', '3', '1', 'd'],
    ]);
    const res = await importCsv(server, user, csv);
    expect(res.statusCode).toBe(400);
    expect((res.json() as ImportReport).errors).toEqual([
      { line: 5, path: 'id', message: T.importSameProduct(4) },
    ]);
    const ok = await importCsv(server, user, csv.split('\r\n').slice(0, 4).join('\r\n'));
    expect(ok.json()).toMatchObject({ created: 2, updated: 1, unchanged: 0 });
    expect((await productOf(other, theirs.id)).name).toBe('Theirs');
  });

  it('reads $14.00, 1,234.50 and spaces; a decimal comma gets advice, a word the API message', async () => {
    const user = await signIn(server);
    const csv = csvText([
      ['name', 'price', 'stock', 'description', 'cost'],
      ['Dollar', '$14.00', '1', 'd', '$2'],
      ['Grouped', '1,234.50', '1', 'd', ' 1,000 '],
      ['Spaced', ' 14 ', '1', 'd', ''],
      ['Comma', '12,50', '1', 'd', '0'],
      ['Word', 'ten', '1', 'd', 'x'],
      ['Dotted', '$1.234,5', '1', 'd', '2,75'],
      ['Odd', '12,5,0', '1', 'd', '1,2a'],
    ]);
    const res = await importCsv(server, user, csv, 'dryRun=true&preview=true');
    const report = res.json() as ImportReport;
    expect(report.errors).toEqual([
      { line: 5, path: 'price', message: T.notAPrice('12,50') },
      { line: 6, path: 'price', message: V.priceInvalid },
      { line: 6, path: 'cost', message: V.costInvalid },
      { line: 7, path: 'price', message: T.notAPrice('1.234,5') },
      { line: 7, path: 'cost', message: T.notAPrice('2,75') },
      { line: 8, path: 'price', message: V.priceInvalid },
      { line: 8, path: 'cost', message: V.costInvalid },
    ]);
    expect(T.notAPrice('12,50')).toBe('"12,50" is not a price: use a dot for decimals, like 12.50');
    expect(report.preview!.map((row) => row.price)).toEqual([14, 1234.5, 14]);
  });

  it('says what the API says of a price or cost that is no number at all', async () => {
    const user = await signIn(server);
    const api = await postProduct(server, user, { ...validFields, price: 'abc', cost: 'abc' });
    expect(api.statusCode).toBe(400);
    const apiErrors = (api.json() as { errors: { path: string; message: string }[] }).errors;
    const csv = csvText([
      ['name', 'price', 'stock', 'description', 'cost'],
      ['Bad row', 'abc', '2', 'd', 'abc'],
    ]);
    const report = (await importCsv(server, user, csv, 'dryRun=true')).json() as ImportReport;
    for (const path of ['price', 'cost']) {
      expect(report.errors.find((error) => error.path === path)?.message).toBe(
        apiErrors.find((error) => error.path === path)?.message,
      );
    }
    expect(report.errors.find((error) => error.path === 'price')?.message).toBe(
      'The price of the product is required',
    );
  });

  it('imports tags and cost columns, and keeps them when the file has none', async () => {
    const user = await signIn(server);
    const first = csvText([
      ['name', 'price', 'stock', 'description', 'tags', 'cost'],
      ['Rake', '9', '1', 'd', 'Garden; tools;garden', '4.25'],
    ]);
    expect((await importCsv(server, user, first)).json()).toMatchObject({ created: 1 });
    const [rake] = await allProducts(server, user);
    expect(await productOf(user, rake!.id)).toMatchObject({
      tags: ['Garden', 'tools'],
      cost: 4.25,
    });
    const again = csvText([HEADER, [rake!.id, 'Rake', '9', '2', 'd']]);
    expect((await importCsv(server, user, again)).json()).toMatchObject({ updated: 1 });
    expect(await productOf(user, rake!.id)).toMatchObject({
      stock: 2,
      tags: ['Garden', 'tools'],
      cost: 4.25,
    });
  });

  it("imports a reorderPoint column: a number, blank for the catalogue's, kept when absent", async () => {
    const user = await signIn(server);
    const first = csvText([
      ['name', 'price', 'stock', 'description', 'reorderPoint'],
      ['Rake', '9', '1', 'd', '5'],
      ['Hoe', '9', '1', 'd', ''],
    ]);
    expect((await importCsv(server, user, first)).json()).toMatchObject({ created: 2 });
    const byName = new Map((await allProducts(server, user)).map((p) => [p.name, p.id]));
    expect((await productOf(user, byName.get('Rake')!)).reorderPoint).toBe(5);
    expect((await productOf(user, byName.get('Hoe')!)).reorderPoint).toBeNull();

    const changed = csvText([
      ['id', 'name', 'price', 'stock', 'description', 'ReorderPoint'],
      [byName.get('Rake')!, 'Rake', '9', '1', 'd', ''],
      [byName.get('Hoe')!, 'Hoe', '9', '1', 'd', '12'],
    ]);
    const planned = (await importCsv(server, user, changed, 'dryRun=true')).json() as ImportReport;
    expect(planned.changes).toEqual([
      {
        line: 2,
        id: byName.get('Rake'),
        fields: [{ field: 'reorderPoint', before: 5, after: null }],
      },
      {
        line: 3,
        id: byName.get('Hoe'),
        fields: [{ field: 'reorderPoint', before: null, after: 12 }],
      },
    ]);
    expect((await importCsv(server, user, changed)).json()).toMatchObject({ updated: 2 });
    expect((await productOf(user, byName.get('Rake')!)).reorderPoint).toBeNull();
    expect((await productOf(user, byName.get('Hoe')!)).reorderPoint).toBe(12);

    // A file without the column keeps each product's own.
    const without = csvText([HEADER, [byName.get('Hoe')!, 'Hoe', '9', '3', 'd']]);
    expect((await importCsv(server, user, without)).json()).toMatchObject({ updated: 1 });
    expect((await productOf(user, byName.get('Hoe')!)).reorderPoint).toBe(12);

    const bad = csvText([
      ['name', 'price', 'stock', 'description', 'reorderPoint'],
      ['Spade', '9', '1', 'd', 'ten'],
      ['Fork', '9', '1', 'd', '-1'],
    ]);
    const refused = (await importCsv(server, user, bad)).json() as ImportReport;
    expect(refused.errors).toEqual([
      { line: 2, path: 'reorderPoint', message: REORDER_MESSAGES.reorderPointInvalid },
      { line: 3, path: 'reorderPoint', message: REORDER_MESSAGES.reorderPointInvalid },
    ]);
    expect(await allProducts(server, user)).toHaveLength(2);
  });
});
