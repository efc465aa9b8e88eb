import { describe, expect, it } from 'vitest';
import {
  IMPORT_ERRORS_MAX,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_PREVIEW_ROWS,
} from '../../../src/shared/constants.js';
import { M, T, V } from '../../../src/shared/messages.js';
import type { ImportReport } from '../../../src/shared/schemas/catalogue.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { rawMultipart } from '../support/images.js';
import {
  allProducts,
  catalogueFields,
  createProduct,
  csvText,
  importCsv,
  listProducts,
  productCount,
  sendBody,
} from '../support/products.js';

const HEADER = ['name', 'price', 'stock', 'description'];

describe('CSV import', async () => {
  const server = await build();

  it('checks a file without writing on a dry run, then imports every row', async () => {
    const user = await signIn(server);
    // Columns in another order, an extra column, a BOM, CRLF, quoted commas, quotes and newlines.
    const csv =
      '\uFEFF' +
      csvText([
        ['description', 'Stock', ' price ', 'sku', 'NAME'],
        ['A lamp, for the desk', 12, '19.99', 'L-1', 'Desk lamp'],
        ['Says "hello"\r\non two lines', 0, '5', 'C-2', 'Chair'],
        ['Plain', '3', '0.5', '', 'Rug, large'],
      ]);
    const before = await productCount(server);

    const dry = await importCsv(server, user, csv, 'dryRun=true');
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toEqual({
      message: T.importChecked(3),
      created: 3,
      updated: 0,
      unchanged: 0,
      errors: [],
    });
    expect(await productCount(server)).toBe(before);

    const res = await importCsv(server, user, csv);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: T.imported(3),
      created: 3,
      updated: 0,
      unchanged: 0,
      errors: [],
    });
    expect(catalogueFields(await allProducts(server, user))).toEqual([
      { name: 'Chair', price: 5, stock: 0, description: 'Says "hello"\r\non two lines' },
      { name: 'Desk lamp', price: 19.99, stock: 12, description: 'A lamp, for the desk' },
      { name: 'Rug, large', price: 0.5, stock: 3, description: 'Plain' },
    ]);
  });

  it('shows a list read before the import with the imported rows after it', async () => {
    const user = await signIn(server);
    await createProduct(server, user, { name: 'Already here' });
    // Read twice: the second answer comes from the response cache.
    for (let i = 0; i < 2; i += 1) {
      expect((await listProducts(server, user)).json().products).toHaveLength(1);
    }
    await importCsv(server, user, csvText([HEADER, ['New', '1', '1', 'd']]));
    const names = (await listProducts(server, user))
      .json()
      .products.map((product: { name: string }) => product.name);
    expect(names.sort()).toEqual(['Already here', 'New']);
  });

  it('reports every bad row with the line its record starts on, and imports none', async () => {
    const user = await signIn(server);
    const csv = [
      'name,price,stock,description', // line 1
      'Good,1.00,1,"spans', // line 2
      'two lines"', // line 3
      ',2.00,1,No name', // line 4
      'Bad price,abc,1,"x', // line 5
      '', // line 6
      'y"', // line 7
      'Too precise,1.999,2,ok', // line 8
      '', // line 9: blank lines are skipped
      'Negative,1,-1,', // line 10
      'Fine,2,2,fine', // line 11
    ].join('\n');
    const errors = {
      errors: [
        { line: 4, path: 'name', message: V.nameRequired },
        { line: 5, path: 'price', message: V.priceInvalid },
        { line: 8, path: 'price', message: V.priceDecimals },
        { line: 10, path: 'stock', message: 'Stock cannot be negative' },
        { line: 10, path: 'description', message: V.descriptionRequired },
      ],
    };
    // A dry run counts the rows that would go in once the others are fixed.
    const dry = await importCsv(server, user, csv, 'dryRun=true');
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toEqual({
      message: T.importCheckedWithErrors(2, 4),
      created: 2,
      updated: 0,
      unchanged: 0,
      ...errors,
    });
    const res = await importCsv(server, user, csv);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: T.importFailed(4),
      created: 0,
      updated: 0,
      unchanged: 0,
      ...errors,
    });
    expect(await allProducts(server, user)).toEqual([]);
  });

  it('counts lines across CRLF inside quoted fields', async () => {
    const user = await signIn(server);
    const csv = csvText([
      HEADER,
      ['A', '1', '1', 'one\r\ntwo\r\nthree'], // lines 2-4
      ['B', 'x', '1', 'b'], // line 5
    ]);
    const res = await importCsv(server, user, csv, 'dryRun=true');
    expect(res.json().errors).toEqual([{ line: 5, path: 'price', message: V.priceInvalid }]);
  });

  it('applies the API rules: stock may be 0, price as text with at most 2 decimals', async () => {
    const user = await signIn(server);
    const csv = csvText([
      HEADER,
      ['Zero', '0.01', '0', 'd'],
      ['Round', '10', '7', 'd'],
      ['Free', '0', '1', 'd'],
      ['Half', '1.5', '1.5', 'd'],
      ['Huge', '100000000', '1', 'd'],
      ['Word', '12', 'ten', 'd'],
      ['N'.repeat(201), '1', '1', 'd'],
      ['Nul', '1', '1', 'a\u0000b'],
    ]);
    const res = await importCsv(server, user, csv, 'dryRun=true');
    expect(res.json().errors).toEqual([
      { line: 4, path: 'price', message: V.priceMin },
      { line: 5, path: 'stock', message: V.stockInteger },
      { line: 6, path: 'price', message: V.priceMax },
      { line: 7, path: 'stock', message: V.stockInvalid },
      { line: 8, path: 'name', message: V.productNameMax },
      { line: 9, path: 'description', message: V.textNul },
    ]);
  });

  it('previews the first valid rows as they would be stored when asked', async () => {
    const user = await signIn(server);
    const rows = Array.from({ length: 30 }, (_, i) => [` Item ${i} `, `${i + 1}.50`, i, `D ${i}`]);
    rows[1]![1] = 'oops';
    const res = await importCsv(
      server,
      user,
      csvText([HEADER, ...rows]),
      'dryRun=true&preview=true',
    );
    const report = res.json() as ImportReport;
    expect(report.rows).toBe(30);
    expect(report.preview).toHaveLength(IMPORT_PREVIEW_ROWS);
    expect(report.preview![0]).toEqual({
      line: 2,
      name: 'Item 0',
      price: 1.5,
      stock: 0,
      description: 'D 0',
    });
    // The bad row is not previewed.
    expect(report.preview![1]!.line).toBe(4);
  });

  it('previews the codes, tags and cost it will store, where the file has them', async () => {
    const user = await signIn(server);
    const csv = [
      'name,price,stock,description,sku,barcode,tags,cost',
      'Jar,4.5,3,A jar,JAR-1,4006381333931,glass;kitchen,1.25',
      'Lid,1,2,A lid,,,,',
    ].join('\n');
    const report = (await importCsv(server, user, csv, 'dryRun=true&preview=true')).json();
    expect((report as ImportReport).preview).toEqual([
      {
        line: 2,
        name: 'Jar',
        price: 4.5,
        stock: 3,
        description: 'A jar',
        sku: 'JAR-1',
        barcode: '4006381333931',
        tags: ['glass', 'kitchen'],
        cost: 1.25,
      },
      {
        line: 3,
        name: 'Lid',
        price: 1,
        stock: 2,
        description: 'A lid',
        sku: null,
        barcode: null,
        tags: [],
        cost: null,
      },
    ]);
  });

  it('takes LF line ends and no BOM, and ignores rows with no value at all', async () => {
    const user = await signIn(server);
    const res = await importCsv(
      server,
      user,
      'name,price,stock,description\nA,1,1,a\n,,,\nB,2,2,b',
    );
    expect(res.json()).toEqual({
      message: T.imported(2),
      created: 2,
      updated: 0,
      unchanged: 0,
      errors: [],
    });
  });

  it('restores a cell an export neutralized: a quote before a formula character goes', async () => {
    const user = await signIn(server);
    const csv = csvText([
      HEADER,
      ["'=SUM(A1:A2)", '1', '1', "'-5 degrees"],
      ["''=kept one", '1', '1', "'+plus"],
      ["'plain quote", '1', '1', "'@home"],
    ]);
    await importCsv(server, user, csv);
    expect(catalogueFields(await allProducts(server, user))).toEqual([
      { name: "'=kept one", price: 1, stock: 1, description: '+plus' },
      { name: "'plain quote", price: 1, stock: 1, description: '@home' },
      { name: '=SUM(A1:A2)', price: 1, stock: 1, description: '-5 degrees' },
    ]);
  });

  it('records an import movement for every product it creates', async () => {
    const user = await signIn(server);
    await importCsv(server, user, csvText([HEADER, ['A', '1', '4', 'a']]));
    const [product] = await allProducts(server, user);
    const res = await server.app.inject({
      method: 'GET',
      url: `/api/products/${product!.id}/movements`,
      headers: user.headers,
    });
    expect(res.json().movements).toEqual([
      expect.objectContaining({ oldStock: 0, newStock: 4, delta: 4, source: 'import', note: null }),
    ]);
  });

  describe('refuses a file that cannot be read as a catalogue, with its line', () => {
    const refused = async (csv: string | Buffer, status = 400) => {
      const user = await signIn(server);
      const res = await importCsv(server, user, csv);
      expect(res.statusCode, res.body).toBe(status);
      expect(await allProducts(server, user)).toEqual([]);
      return res.json() as ImportReport;
    };

    it('a header without a required column, naming it', async () => {
      const report = await refused('name,price,description\nA,1,a\n');
      expect(report).toEqual({
        message: T.importMissingColumn('stock'),
        created: 0,
        updated: 0,
        unchanged: 0,
        errors: [{ line: 1, path: 'stock', message: T.importMissingColumn('stock') }],
      });
    });

    it('a header that is not one: every column missing', async () => {
      const report = await refused('Desk lamp,19.99,12,A lamp\n');
      expect(report.errors.map((error) => error.path)).toEqual(HEADER);
    });

    it('a column named twice', async () => {
      const report = await refused('name,price,stock,description,Name\nA,1,1,a,b\n');
      expect(report.errors).toEqual([
        { line: 1, path: 'name', message: T.importRepeatedColumn('name') },
      ]);
    });

    it('an empty file, and a header with no rows', async () => {
      expect((await refused('')).message).toBe(M.importEmpty);
      expect((await refused('\uFEFF\r\n')).message).toBe(M.importEmpty);
      expect((await refused('name,price,stock,description\r\n')).errors).toEqual([
        { line: 2, path: 'file', message: M.importNoRows },
      ]);
    });

    it('a file that is not UTF-8: the line of the first byte that is not', async () => {
      // What a spreadsheet saves as "CSV" in Windows-1252: Café would come in as Caf\uFFFD.
      const latin1 = Buffer.from(
        'name,price,stock,description\nTea,1,1,t\nCaf\xe9,1,1,c\n',
        'latin1',
      );
      expect(await refused(latin1)).toEqual({
        message: M.importNotUtf8,
        created: 0,
        updated: 0,
        unchanged: 0,
        errors: [{ line: 3, path: 'file', message: M.importNotUtf8 }],
      });
      // UTF-16, as "Unicode text" is saved.
      const utf16 = Buffer.from('\uFEFFname,price,stock,description\r\n', 'utf16le');
      expect((await refused(utf16)).errors).toEqual([
        { line: 1, path: 'file', message: M.importNotUtf8 },
      ]);
      // A character cut between two chunks of the upload is no error.
      const user = await signIn(server);
      const long = `name,price,stock,description\n${'é'.repeat(31_000)},1,1,d\n`;
      expect((await importCsv(server, user, long, 'dryRun=true')).json().errors).toEqual([
        { line: 2, path: 'name', message: V.productNameMax },
      ]);
    });

    it('a quoted field never closed: the line where it starts', async () => {
      const report = await refused('name,price,stock,description\nA,1,1,a\nB,1,1,"open\nC,1,1,c\n');
      expect(report).toEqual({
        message: M.importUnclosedQuote,
        created: 0,
        updated: 0,
        unchanged: 0,
        errors: [{ line: 3, path: 'file', message: M.importUnclosedQuote }],
      });
    });

    it('a stray quote: the line where it is', async () => {
      const crlf = 'name,price,stock,description\r\nA,1,1,"two\r\nlines"\r\nB,1,1,"b"x\r\n';
      expect((await refused(crlf)).errors).toEqual([
        { line: 4, path: 'file', message: M.importBadQuote },
      ]);
      expect((await refused('name,price,stock,description\nA,1,1,5" screen\n')).errors).toEqual([
        { line: 2, path: 'file', message: M.importBadQuote },
      ]);
    });

    it(`more than ${IMPORT_MAX_ROWS} rows (${IMPORT_MAX_ROWS} pass)`, async () => {
      const rows = (n: number) => 'name,price,stock,description\n' + 'Lamp,1,1,d\n'.repeat(n);
      const user = await signIn(server);
      const ok = await importCsv(server, user, rows(IMPORT_MAX_ROWS), 'dryRun=true');
      expect(ok.json()).toMatchObject({
        created: IMPORT_MAX_ROWS,
        updated: 0,
        unchanged: 0,
        errors: [],
      });
      const report = await refused(rows(IMPORT_MAX_ROWS + 1));
      expect(report).toEqual({
        message: M.importTooManyRows,
        created: 0,
        updated: 0,
        unchanged: 0,
        errors: [{ line: IMPORT_MAX_ROWS + 2, path: 'file', message: M.importTooManyRows }],
      });
    });

    it('a file over 10 MB: 413', async () => {
      const big = Buffer.alloc(IMPORT_MAX_BYTES + 1024 * 1024, 'a');
      big.write('name,price,stock,description\n');
      const report = await refused(big, 413);
      expect(report.message).toBe(M.importTooLarge);
    });
  });

  it('lists at most the first errors and counts them all', async () => {
    const user = await signIn(server);
    const csv = 'name,price,stock,description\n' + ',1,1,d\n'.repeat(IMPORT_ERRORS_MAX + 1);
    const report = (await importCsv(server, user, csv, 'dryRun=true')).json() as ImportReport;
    expect(report.errors).toHaveLength(IMPORT_ERRORS_MAX);
    expect(report.errors.at(-1)).toEqual({
      line: IMPORT_ERRORS_MAX + 1,
      path: 'name',
      message: V.nameRequired,
    });
    expect(report.message).toBe(T.importCheckedWithErrors(0, IMPORT_ERRORS_MAX + 1));
  });

  it('imports 10,000 rows in one request', async () => {
    const user = await signIn(server);
    const rows = Array.from({ length: 10_000 }, (_, i) => [`Item ${i}`, '2.50', i % 20, `D ${i}`]);
    const started = Date.now();
    const res = await importCsv(server, user, csvText([HEADER, ...rows]));
    expect(res.json()).toEqual({
      message: T.imported(10_000),
      created: 10_000,
      updated: 0,
      unchanged: 0,
      errors: [],
    });
    // Generous for a busy two-core machine; bench/results.md has the real figure.
    expect(Date.now() - started).toBeLessThan(20_000);
    const summary = await server.app.inject({
      method: 'GET',
      url: '/api/products/summary',
      headers: user.headers,
    });
    expect(summary.json()).toMatchObject({ count: 10_000 });
  });

  describe('refuses a request that carries no CSV file', () => {
    it('no file part, another field, two files, a JSON body', async () => {
      const user = await signIn(server);
      const send = (body: { headers: Record<string, string>; payload: Buffer | string }) =>
        sendBody(server, user, 'POST', '/api/products/import', body);
      const none = await send(rawMultipart([]));
      expect(none.statusCode).toBe(400);
      expect(none.json()).toMatchObject({ message: M.importNoFile });
      const field = await send(rawMultipart([['file', 'name,price\n']]));
      expect(field.statusCode).toBe(400);
      const file = (name: string) =>
        `--BOUNDARY\r\nContent-Disposition: form-data; name="${name}"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nname,price,stock,description\nA,1,1,a\r\n`;
      const two = await send(rawMultipart([], file('file') + file('file')));
      expect(two.statusCode).toBe(400);
      const other = await send(rawMultipart([], file('image')));
      expect(other.statusCode).toBe(400);
      const json = await server.app.inject({
        method: 'POST',
        url: '/api/products/import',
        headers: user.headers,
        payload: { file: 'name,price,stock,description' },
      });
      expect(json.statusCode).toBe(415);
      expect(json.json()).toEqual({ message: M.importNotMultipart });
      expect(await allProducts(server, user)).toEqual([]);
    });

    it('an invalid dryRun', async () => {
      const user = await signIn(server);
      const res = await importCsv(server, user, csvText([HEADER]), 'dryRun=yes');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: V.dryRunInvalid });
    });
  });

  it("touches no other user's catalogue", async () => {
    const user = await signIn(server);
    const other = await signIn(server);
    await createProduct(server, other, { name: 'Theirs' });
    await importCsv(server, user, csvText([HEADER, ['Mine', '1', '1', 'm']]));
    expect((await allProducts(server, other)).map((product) => product.name)).toEqual(['Theirs']);
    expect((await allProducts(server, user)).map((product) => product.name)).toEqual(['Mine']);
  });
});
