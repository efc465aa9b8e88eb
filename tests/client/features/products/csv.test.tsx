import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { T } from '@shared/messages.js';
import type { ImportReport } from '@shared/schemas/catalogue.js';
import { ImportProducts } from '@/features/products/components/ImportProducts.js';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { renderRoute } from '../../support/render.js';
import { apiError, deferred, requests, server } from '../../support/server.js';
import { answerSummary } from './catalogue.js';
import { listed } from './fixtures.js';

describe('Export CSV', () => {
  let saved: { href: string; download: string; blob: Blob | undefined }[] = [];
  const blobs = new Map<string, Blob>();

  beforeEach(() => {
    saved = [];
    answerSummary();
    server.use(
      http.get('/api/products', () =>
        HttpResponse.json({ products: [listed({})], nextCursor: null }),
      ),
    );
    // jsdom has no object URLs and does not download: the link the app clicks is recorded.
    URL.createObjectURL = vi.fn((blob: Blob) => {
      const url = `blob:test/${blobs.size}`;
      blobs.set(url, blob);
      return url;
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ href: this.href, download: this.download, blob: blobs.get(this.href) });
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it("downloads the list's products with its search, sort and filter, under the server's name", async () => {
    const csv = '\uFEFFid,name,price,stock,description,image,createdAt,updatedAt\r\n';
    server.use(
      http.get(
        '/api/products/export.csv',
        () =>
          new HttpResponse(csv, {
            headers: {
              'content-type': 'text/csv; charset=utf-8',
              'content-disposition': 'attachment; filename="stockroom-products-2025-01-02.csv"',
            },
          }),
      ),
    );
    localStorage.setItem('AccessToken', 'token-1');
    const { user } = renderRoute(<ProductsPage />, { url: '/?q=lamp&sort=name&stock=low' });
    await screen.findByRole('list');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 5000 });
    expect(saved[0]!.download).toBe('stockroom-products-2025-01-02.csv');
    // The browser may save it without a word: the app says it is done, and under which name.
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'CSV exported: stockroom-products-2025-01-02.csv',
    );
    // Byte for byte, the BOM included (Blob.text() would drop it).
    const bytes = new Uint8Array(await saved[0]!.blob!.arrayBuffer());
    expect([...bytes]).toEqual([...new TextEncoder().encode(csv)]);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [request] = (await requests()).filter(({ path }) => path === '/products/export.csv');
    expect(request).toMatchObject({
      query: { q: 'lamp', sort: 'name', stock: 'low' },
      authorization: 'Bearer token-1',
    });
  });

  it("says why an export failed, with the server's message", async () => {
    server.use(
      http.get('/api/products/export.csv', () =>
        apiError(400, { message: 'stock must be one of low, out' }),
      ),
    );
    const { user } = renderRoute(<ProductsPage />);
    await screen.findByRole('list');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('stock must be one of low, out');
    expect(saved).toEqual([]);
  });
});

const csvFile = (text = 'name,price,stock,description\nLamp,12.5,3,A lamp\n', name = 'p.csv') =>
  new File([text], name, { type: 'text/csv' });

const checked: ImportReport = {
  message: '2 products ready to import',
  created: 2,
  updated: 0,
  unchanged: 0,
  errors: [],
  rows: 2,
  preview: [
    { line: 2, name: 'Lamp', price: 12.5, stock: 3, description: 'A lamp' },
    { line: 3, name: 'Chair', price: 40, stock: 10, description: 'A chair, wooden' },
  ],
};

/** A dry run's report of a file with a bad row: `created` counts the rows that pass. */
const withErrors: ImportReport = {
  message: T.importCheckedWithErrors(1, 1),
  created: 1,
  updated: 0,
  unchanged: 0,
  errors: [
    { line: 3, path: 'price', message: 'The price of the product is required' },
    { line: 3, path: 'description', message: 'Description is required' },
  ],
  rows: 2,
  preview: [{ line: 2, name: 'Lamp', price: 12.5, stock: 3, description: 'A lamp' }],
};

const imports = async () => (await requests()).filter(({ path }) => path === '/products/import');

describe('ImportProducts', () => {
  const setup = () =>
    renderRoute(<ImportProducts />, {
      path: '/products/import',
      userOptions: { applyAccept: false },
    });

  it('checks the file at once: count, first rows and every error with its line; no import', async () => {
    server.use(http.post('/api/products/import', () => HttpResponse.json(withErrors)));
    const { user } = setup();
    expect(screen.getByRole('heading', { name: 'Import Products', level: 1 })).toBeVisible();
    expect(screen.getByRole('link', { name: /Back to Products/ })).toHaveAttribute('href', '/');
    expect(screen.getByLabelText('CSV file')).toHaveAccessibleDescription(
      'A header row naming the columns name, price, stock, description, in any order; up to 10 MB and 50,000 rows.',
    );
    await user.upload(screen.getByLabelText('CSV file'), csvFile());

    expect(await screen.findByText('1 product ready to import; 1 row has errors')).toBeVisible();
    expect(screen.getByText('2 rows read, 2 errors.')).toBeVisible();
    const errors = within(screen.getByRole('list'));
    expect(errors.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Line 3priceThe price of the product is required',
      'Line 3descriptionDescription is required',
    ]);
    const preview = within(screen.getByRole('table'));
    expect(preview.getAllByRole('row')).toHaveLength(2);
    expect(preview.getByRole('cell', { name: '$12.50' })).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Import/ })).not.toBeInTheDocument();

    const [request] = await imports();
    expect(request).toMatchObject({
      method: 'POST',
      query: { dryRun: 'true', preview: 'true' },
      body: { file: { file: 'text/csv' } },
    });
  });

  it('previews the SKU, barcode, tags and cost each row will store', async () => {
    server.use(
      http.post('/api/products/import', () =>
        HttpResponse.json({
          ...checked,
          preview: [
            {
              ...checked.preview![0]!,
              sku: 'LMP-1',
              barcode: '4006381333931',
              tags: ['desk', 'light'],
              cost: 5.25,
            },
            { ...checked.preview![1]!, sku: null, barcode: null, tags: [], cost: null },
          ],
        }),
      ),
    );
    const { user } = setup();
    await user.upload(screen.getByLabelText('CSV file'), csvFile());
    const table = within(await screen.findByRole('table'));
    expect(table.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Line',
      'Name',
      'SKU',
      'Barcode',
      'Tags',
      'Price',
      'Cost',
      'Stock',
      'Description',
    ]);
    const [, lamp] = table.getAllByRole('row');
    expect(
      within(lamp!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '2',
      'Lamp',
      'LMP-1',
      '4006381333931',
      'desk, light',
      '$12.50',
      '$5.25',
      '3',
      'A lamp',
    ]);
  });

  it("imports a good file after its check, with progress, then goes to the list with the server's message", async () => {
    const answer = deferred();
    server.use(
      http.post('/api/products/import', ({ request }) =>
        new URL(request.url).searchParams.get('dryRun') === 'true'
          ? HttpResponse.json(checked)
          : answer.promise,
      ),
    );
    const { user } = setup();
    await user.upload(screen.getByLabelText('CSV file'), csvFile());
    expect(await screen.findByText('2 products ready to import')).toBeVisible();
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Import 2 products' }));
    expect(await screen.findByRole('progressbar', { name: 'Importing...' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Importing...' })).toBeDisabled();
    answer.resolve(HttpResponse.json({ ...checked, message: '2 products imported' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/');
    expect(await screen.findByRole('alert')).toHaveTextContent('2 products imported');
    expect((await imports()).map(({ query }) => query.dryRun)).toEqual(['true', 'false']);
  });

  it('counts updates as work to do, and checks again when told what to do with matches', async () => {
    const planned: ImportReport = {
      ...checked,
      message: T.importPlanned(0, 2, 1),
      created: 0,
      updated: 2,
      unchanged: 1,
    };
    server.use(http.post('/api/products/import', () => HttpResponse.json(planned)));
    const { user } = setup();
    await user.upload(screen.getByLabelText('CSV file'), csvFile());
    expect(await screen.findByText(T.importPlanned(0, 2, 1))).toBeVisible();
    expect(screen.getByRole('button', { name: 'Import 2 products' })).toBeEnabled();

    await user.selectOptions(screen.getByLabelText('Rows that match a product'), 'copy');
    await waitFor(async () => expect(await imports()).toHaveLength(2));
    expect((await imports()).map(({ query }) => query.matches)).toEqual(['update', 'copy']);
    expect(screen.getByRole('button', { name: 'Download a template CSV' })).toBeVisible();
  });

  it('shows the report of an import the server refused (a row went bad since the check)', async () => {
    server.use(
      http.post('/api/products/import', ({ request }) =>
        new URL(request.url).searchParams.get('dryRun') === 'true'
          ? HttpResponse.json(checked)
          : HttpResponse.json(
              { ...withErrors, message: T.importFailed(1), created: 0 },
              { status: 400 },
            ),
      ),
    );
    const { user } = setup();
    await user.upload(screen.getByLabelText('CSV file'), csvFile());
    await user.click(await screen.findByRole('button', { name: 'Import 2 products' }));
    expect(await screen.findByText('Nothing was imported: 1 row has errors')).toBeVisible();
    expect(screen.getByText('The price of the product is required')).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Import/ })).not.toBeInTheDocument();
  });

  it('says why a file is refused as a whole (a wrong header)', async () => {
    server.use(
      http.post('/api/products/import', () =>
        HttpResponse.json(
          {
            message: 'Nothing was imported: The header row has no "price" column',
            created: 0,
            updated: 0,
            unchanged: 0,
            errors: [{ line: 1, path: 'file', message: 'The header row has no "price" column' }],
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = setup();
    await user.upload(screen.getByLabelText('CSV file'), csvFile('name,cost\nLamp,3\n'));
    expect(
      await screen.findByText('Nothing was imported: The header row has no "price" column'),
    ).toBeVisible();
    expect(screen.getByText('Line 1')).toBeVisible();
  });

  it('refuses a file over 10 MB without sending it', async () => {
    const { user } = setup();
    const big = csvFile('x');
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    await user.upload(screen.getByLabelText('CSV file'), big);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The CSV file must be at most 10 MB',
    );
    expect(screen.getByLabelText('CSV file')).toHaveAttribute('aria-invalid', 'true');
    expect(await imports()).toEqual([]);
  });

  it('shows only the answer about the last file chosen', async () => {
    const first = deferred();
    const answers = [first.promise, Promise.resolve(HttpResponse.json(checked))];
    server.use(http.post('/api/products/import', () => answers.shift()!));
    const { user } = setup();
    await user.upload(screen.getByLabelText('CSV file'), csvFile(undefined, 'first.csv'));
    await user.upload(screen.getByLabelText('CSV file'), csvFile(undefined, 'second.csv'));
    expect(await screen.findByText('2 products ready to import')).toBeVisible();
    first.resolve(HttpResponse.json(withErrors));
    await waitFor(async () => expect(await imports()).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('2 products ready to import')).toBeVisible();
    expect(screen.queryByText(withErrors.message)).not.toBeInTheDocument();
  });
});
