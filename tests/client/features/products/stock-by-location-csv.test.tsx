import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SI, type StockImportReport } from '@shared/schemas/locations/stock-import.js';
import { ImportStockByLocation } from '@/features/products/components/ImportStockByLocation.js';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { renderRoute } from '../../support/render.js';
import { requests, server } from '../../support/server.js';
import { answerSummary } from './catalogue.js';
import { listed } from './fixtures.js';

const PRODUCT = '11111111-1111-4111-8111-111111111111';

describe('Export stock by location', () => {
  const saved: string[] = [];
  beforeEach(() => {
    saved.length = 0;
    answerSummary();
    server.use(
      http.get('/api/products', () =>
        HttpResponse.json({ products: [listed({})], nextCursor: null }),
      ),
      http.get(
        '/api/products/stock-by-location.csv',
        () =>
          new HttpResponse('\uFEFFid,sku,barcode,name,location,quantity\r\n', {
            headers: {
              'content-type': 'text/csv; charset=utf-8',
              'content-disposition':
                'attachment; filename="stockroom-stock-by-location-2026-01-02.csv"',
            },
          }),
      ),
    );
    URL.createObjectURL = vi.fn(() => 'blob:test/1');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('saves where the stock is, and links to its import, from the list', async () => {
    const { user } = renderRoute(<ProductsPage />);
    await screen.findByRole('list');
    const menus = screen.getAllByRole('button', { name: 'Stock by location' });
    await user.click(menus.at(-1)!);
    expect(screen.getByRole('menuitem', { name: 'Import stock by location' })).toHaveAttribute(
      'href',
      '/products/stock-by-location/import',
    );
    await user.click(screen.getByRole('menuitem', { name: 'Export stock by location' }));
    await waitFor(() => expect(saved).toEqual(['stockroom-stock-by-location-2026-01-02.csv']));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'CSV exported: stockroom-stock-by-location-2026-01-02.csv',
    );
  });
});

const csvFile = () =>
  new File([`id,location,quantity\n${PRODUCT},Main,3\n`], 'stock.csv', { type: 'text/csv' });

const checked: StockImportReport = {
  message: SI.checked(1, 0),
  changed: 1,
  unchanged: 0,
  errors: [],
  changes: [
    {
      line: 2,
      productId: PRODUCT,
      name: 'Lamp',
      location: 'Warehouse / Bin 4',
      before: 7,
      after: 3,
    },
  ],
};

const imports = async () =>
  (await requests()).filter(({ path }) => path === '/products/stock-by-location/import');

describe('ImportStockByLocation', () => {
  const setup = () =>
    renderRoute(<ImportStockByLocation />, {
      path: '/products/stock-by-location/import',
      userOptions: { applyAccept: false },
    });

  it("names this file's columns under the picker, not the products import's", async () => {
    setup();
    const picker = screen.getByLabelText('CSV file');
    expect(picker).toHaveAccessibleDescription(
      'A header row naming the columns location, quantity, and id, sku or barcode, in any order (others, such as name, are left aside); up to 10 MB and 50,000 rows.',
    );
  });

  it('checks the file first and shows what would change, then counts it in on confirm', async () => {
    server.use(
      http.post('/api/products/stock-by-location/import', ({ request }) =>
        new URL(request.url).searchParams.get('dryRun') === 'true'
          ? HttpResponse.json(checked)
          : HttpResponse.json({ ...checked, message: SI.done(1, 0), changes: undefined }),
      ),
    );
    const { user } = setup();
    expect(
      screen.getByRole('heading', { name: 'Import Stock by Location', level: 1 }),
    ).toBeVisible();
    await user.upload(screen.getByLabelText('CSV file'), csvFile());
    expect(await screen.findByText(SI.checked(1, 0))).toBeVisible();
    const changes = within(screen.getByRole('list'));
    expect(changes.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'LampWarehouse / Bin 47 → 3',
    ]);
    // Only checked so far.
    expect((await imports()).map(({ query }) => query.dryRun)).toEqual(['true']);

    await user.click(screen.getByRole('button', { name: 'Set 1 quantity' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/');
    expect(await screen.findByRole('alert')).toHaveTextContent(SI.done(1, 0));
    expect((await imports()).map(({ query }) => query.dryRun)).toEqual(['true', 'false']);
  });

  it('lists every bad line and offers nothing to confirm', async () => {
    server.use(
      http.post('/api/products/stock-by-location/import', () =>
        HttpResponse.json({
          message: SI.checkedWithErrors(0, 1),
          changed: 0,
          unchanged: 0,
          errors: [{ line: 2, path: 'location', message: SI.locationNotFound }],
        } satisfies StockImportReport),
      ),
    );
    const { user } = setup();
    await user.upload(screen.getByLabelText('CSV file'), csvFile());
    expect(await screen.findByText(SI.checkedWithErrors(0, 1))).toBeVisible();
    expect(screen.getByRole('listitem')).toHaveTextContent(`Line 2location${SI.locationNotFound}`);
    expect(screen.queryByRole('button', { name: /^Set/ })).not.toBeInTheDocument();
  });
});
