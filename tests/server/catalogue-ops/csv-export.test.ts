import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS } from '../../../src/shared/constants.js';
import { T, V } from '../../../src/shared/messages.js';
import {
  neutralizeCell,
  restoreCell,
} from '../../../src/server/features/catalogue-ops/csv-cells.js';
import { csvExport } from '../../../src/server/features/catalogue-ops/csv-export.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { build } from '../support/build.js';
import { jpeg } from '../support/images.js';
import { signIn } from '../support/accounts.js';
import {
  allProducts,
  catalogueFields,
  createProduct,
  exportCsv,
  importCsv,
  patchProduct,
} from '../support/products.js';

const BOM = '\uFEFF';

/** The records of an export, header first (the BOM checked and removed). */
function records(body: string): string[][] {
  expect(body.startsWith(BOM)).toBe(true);
  return parse(body.slice(BOM.length), { relax_column_count: false }) as string[][];
}

/** Tricky values that must leave and come back exactly. */
const TRICKY = [
  { name: '=SUM(A1:A9)', price: '1.5', stock: '0', description: '-5 degrees, "cold"' },
  { name: '+33 6 12', price: '0.01', stock: '1', description: '@channel\r\nsecond line' },
  { name: '@home', price: '99999999.99', stock: '2147483647', description: 'a\nb\n\nc' },
  { name: "'=already quoted", price: '10', stock: '3', description: "''=two quotes" },
  { name: "'plain", price: '10.10', stock: '4', description: "It's =not first" },
  { name: 'Comma, quote " and ; semicolon', price: '3', stock: '5', description: '"quoted"' },
  { name: 'Émile 🚀 生', price: '7.77', stock: '6', description: 'tab\tinside and → arrows' },
  { name: '-', price: '2', stock: '7', description: '=' },
];

describe('CSV export', async () => {
  const server = await build();

  it('streams the catalogue as RFC 4180 CSV with a BOM, a header and an attachment name', async () => {
    const user = await signIn(server);
    const plain = await createProduct(server, user, {
      name: 'Desk lamp',
      price: '19.9',
      stock: '12',
      description: 'A lamp, for the desk',
    });
    server.clock.advance(1000);
    const pictured = await createProduct(server, user, { name: 'Chair' }, { data: await jpeg() });
    const res = await exportCsv(server, user);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="stockroom-products-2026-01-01.csv"',
    );
    expect(res.headers['cache-control']).toBe('no-store');
    // Lines end with CRLF (RFC 4180).
    expect(res.body.startsWith(`${BOM}${EXPORT_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(records(res.body)).toEqual([
      [...EXPORT_COLUMNS],
      [
        pictured.id,
        'Chair',
        '19.99',
        '12',
        'A lamp for the desk',
        pictured.image,
        '2026-01-01T00:00:01.000Z',
        '2026-01-01T00:00:01.000Z',
        // No SKU, no barcode, no tags, no cost, the catalogue's reorder point, no quantity.
        '',
        '',
        '',
        '',
        '',
        '',
      ],
      [
        plain.id,
        'Desk lamp',
        '19.90',
        '12',
        'A lamp, for the desk',
        // No picture of its own: no URL (the API's placeholder is not the product's).
        '',
        '2026-01-01T00:00:00.000Z',
        '2026-01-01T00:00:00.000Z',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
    ]);
  });

  it('follows the list: q, sort and the stock filter, and only the caller’s products', async () => {
    const user = await signIn(server);
    const other = await signIn(server);
    await createProduct(server, other, { name: 'Not mine lamp' });
    for (const [name, stock] of [
      ['Blue lamp', '0'],
      ['Red lamp', '5'],
      ['Green lamp', '50'],
      ['Rug', '2'],
    ] as const) {
      await createProduct(server, user, { name, stock, description: 'Sold by the unit' });
    }
    const names = async (query: string) => {
      const res = await exportCsv(server, user, query);
      expect(res.statusCode).toBe(200);
      const rows = records(res.body).slice(1);
      // Searches read their rows another way on SQLite: the times come along all the same.
      for (const row of rows) expect(row[6]).toMatch(/^2026-01-01T\d\d:\d\d:\d\d\.000Z$/);
      return rows.map((record) => record[1]);
    };
    expect(await names('sort=name')).toEqual(['Blue lamp', 'Green lamp', 'Red lamp', 'Rug']);
    expect(await names('q=lamp&sort=stock-desc')).toEqual(['Green lamp', 'Red lamp', 'Blue lamp']);
    expect(await names('stock=low&sort=name')).toEqual(['Red lamp', 'Rug']);
    expect(await names('stock=out')).toEqual(['Blue lamp']);
    expect(await names('q=nothing-like-this')).toEqual([]);
  });

  it('refuses what the list refuses, as JSON', async () => {
    const user = await signIn(server);
    for (const [query, message] of [
      ['sort=cheapest', V.sortInvalid],
      ['stock=some', V.stockFilterInvalid],
      [`q=${'x'.repeat(201)}`, V.searchTooLong],
    ]) {
      const res = await exportCsv(server, user, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ message });
    }
    const anonymous = await server.app.inject({ method: 'GET', url: '/api/products/export.csv' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('neutralizes cells a spreadsheet would run as a formula', async () => {
    const user = await signIn(server);
    const product = await createProduct(server, user, {
      name: '=HYPERLINK("http://evil.example","x")',
      description: '@SUM(1+1)',
    });
    await patchProduct(server, user, product.id, { name: '+1+1' });
    const [, row] = records((await exportCsv(server, user)).body);
    expect(row![1]).toBe("'+1+1");
    expect(row![4]).toBe("'@SUM(1+1)");
  });

  it('quotes every cell with a line break, a bare LF as well as CRLF (RFC 4180)', async () => {
    const user = await signIn(server);
    // JSON keeps a bare LF (a multipart form sends line breaks as CRLF).
    for (const description of ['a\nb', 'c\r\nd']) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/products',
        headers: { authorization: `Bearer ${user.token}` },
        payload: { name: 'Lines', price: 1, stock: 1, description },
      });
      expect(res.statusCode).toBe(201);
    }
    const { body } = await exportCsv(server, user);
    expect(body).toContain(',"a\nb",');
    expect(body).toContain(',"c\r\nd",');
    // A reader that takes LF for a record's end still reads the header and 2 records.
    expect(parse(body.slice(BOM.length), { record_delimiter: '\n' })).toHaveLength(3);
  });

  it('export then import into an empty account gives back every value exactly', async () => {
    const source = await signIn(server);
    const target = await signIn(server);
    for (const product of TRICKY) await createProduct(server, source, product);
    const exported = await exportCsv(server, source);
    const imported = await importCsv(server, target, exported.rawPayload);
    expect(imported.json()).toEqual({
      message: T.imported(TRICKY.length),
      created: TRICKY.length,
      updated: 0,
      unchanged: 0,
      errors: [],
    });
    const before = catalogueFields(await allProducts(server, source));
    expect(catalogueFields(await allProducts(server, target))).toEqual(before);
    expect(before.map((product) => product.name).sort()).toEqual(
      TRICKY.map((product) => product.name).sort(),
    );
    // And once more: the second export is the first one's data, byte for byte, but for ids/times.
    const again = await exportCsv(server, target);
    const strip = (body: string) =>
      records(body)
        .map((record) => [record[1], record[2], record[3], record[4]].join('|'))
        .sort();
    expect(strip(again.body)).toEqual(strip(exported.body));
  });
});

describe('formula cells', () => {
  it('prefixes a quote to cells that start like a formula, and takes it off again', () => {
    for (const text of ['=1', '+1', '-1', '@a', '\tx', '\rx', "'=1", "''+1"]) {
      expect(neutralizeCell(text)).toBe(`'${text}`);
      expect(restoreCell(neutralizeCell(text))).toBe(text);
    }
    for (const text of ['plain', "'quoted", '1-2', 'a=b', '', ' =1']) {
      expect(neutralizeCell(text)).toBe(text);
      expect(restoreCell(text)).toBe(text);
    }
  });
});

describe('export streaming', async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const user = await signIn(server);
  const ownerId = (
    await server.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.headers })
  ).json().user.id as string;
  const repository = new ProductRepository(db, dialect);
  await bulkLoad(
    { db, dialect },
    ownerId,
    Array.from({ length: 5000 }, (_, i) => ({
      name: `Product ${i}`,
      description: 'x'.repeat(200),
      priceCents: i + 1,
      stock: i % 30,
      image: null,
      createdAt: i,
    })),
  );

  it('reads a page from the database only when the client has taken the previous ones', async () => {
    let pagesRead = 0;
    const pages = repository.exportPages(ownerId, { sort: 'newest' }, 100);
    const counted = (async function* () {
      for await (const page of pages) {
        pagesRead += 1;
        yield page;
      }
    })();
    const stream = csvExport(counted, (key) => (key ? `http://x/${key}` : ''));
    // A client that has not read yet: the stream stops once its buffers are full.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pagesRead).toBeLessThanOrEqual(3);
    // Then reads slowly: the pages are read as it goes, never far ahead.
    let bytes = 0;
    let maxAhead = 0;
    await pipeline(
      stream,
      new Writable({
        highWaterMark: 1024,
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          // Rows are about 312 bytes: counting 320 takes fewer pages as read than were.
          const taken = bytes / (100 * 320);
          maxAhead = Math.max(maxAhead, pagesRead - taken);
          setImmediate(done);
        },
      }),
    );
    expect(pagesRead).toBe(50);
    expect(maxAhead).toBeLessThan(5);
  });

  it('sends every row through the route, in order', async () => {
    const res = await exportCsv(server, user, 'sort=price-asc');
    const rows = records(res.body).slice(1);
    expect(rows).toHaveLength(5000);
    expect(rows.map((row) => row[2])).toEqual(
      Array.from({ length: 5000 }, (_, i) => ((i + 1) / 100).toFixed(2)),
    );
  });
});
