import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test, vi } from 'vitest';
import { LocationHoldings } from '@/features/products/components/LocationHoldings.js';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { renderRoute } from '../../support/render.js';
import { BIN_LOCATION, MAIN_LOCATION, requests, server } from '../../support/server.js';
import { answerSummary } from './catalogue.js';
import { listed, product } from './fixtures.js';

/** The list filtered by location, and a location's page listing and moving what it holds. */
const MAIN = MAIN_LOCATION.id;
const BIN = BIN_LOCATION;

vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  answerSummary();
  server.use(
    http.get('/api/locations', () => HttpResponse.json({ locations: [MAIN_LOCATION, BIN] })),
    http.get('/api/products', ({ request }) => {
      const location = new URL(request.url).searchParams.get('location');
      const all = [listed({ id: 'p1', name: 'Lamp' }), listed({ id: 'p2', name: 'Chair' })];
      return HttpResponse.json({
        products: location === BIN.id ? all.slice(0, 1) : all,
        nextCursor: null,
      });
    }),
    http.get('/api/products/p1', () =>
      HttpResponse.json({
        product: product({
          id: 'p1',
          name: 'Lamp',
          stock: 9,
          locations: [
            { locationId: MAIN, path: 'Main', quantity: 4 },
            { locationId: BIN.id, path: BIN.path, quantity: 5 },
          ],
        }),
      }),
    ),
    http.post('/api/stock/transfers', () =>
      HttpResponse.json({ message: 'Moved 5 units of 1 product', products: [] }),
    ),
  );
});

const listRequests = async () =>
  (await requests()).filter(({ method, path }) => method === 'GET' && path === '/products');

test('the list filters by a location picked among the catalogue’s, in the URL', async () => {
  const { user } = renderRoute(<ProductsPage />);
  await screen.findByRole('list', {}, { timeout: 5000 });
  expect(screen.getAllByRole('listitem')).toHaveLength(2);
  await user.click(screen.getByRole('button', { name: 'Filter by location' }));
  const picker = await screen.findByRole('combobox', { name: 'Location' });
  expect(picker).toHaveDisplayValue('All locations');
  await user.selectOptions(picker, 'Shelf / Bin 4');
  await waitFor(async () =>
    expect((await listRequests()).at(-1)?.query).toMatchObject({ location: BIN.id }),
  );
  await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
  await user.selectOptions(picker, 'All locations');
  await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2));
});

test('above a location’s list, its counts and figures are what it holds', async () => {
  answerSummary((query) =>
    query.get('location') === BIN.id
      ? { count: query.get('stock') === 'out' ? 0 : 1, units: 5, value: 50, toReorder: 1 }
      : { count: query.get('stock') === 'out' ? 0 : 2, units: 12, value: 240 },
  );
  const { user } = renderRoute(<ProductsPage />);
  await screen.findByRole('list', {}, { timeout: 5000 });
  const figures = () =>
    screen
      .getAllByRole('term')
      .map((term, i) => [term.textContent, screen.getAllByRole('definition')[i]!.textContent]);
  expect(figures()).toEqual([
    ['Total units', '12'],
    ['Stock value at price', '$240.00'],
  ]);
  expect(screen.getByRole('status')).toHaveTextContent('2 products');
  await user.click(screen.getByRole('button', { name: 'Filter by location' }));
  await user.selectOptions(
    await screen.findByRole('combobox', { name: 'Location' }),
    'Shelf / Bin 4',
  );
  await waitFor(() =>
    expect(figures()).toEqual([
      ['Total units here', '5'],
      ['Stock value here at price', '$50.00'],
    ]),
  );
  expect(screen.getByRole('status')).toHaveTextContent('1 product');
  const filters = within(screen.getByRole('group', { name: 'Stock filter' }));
  expect(filters.getAllByRole('button').map((button) => button.textContent)).toEqual([
    'All 1',
    'To reorder 1',
    'Out of Stock 0',
  ]);
  const summaries = (await requests()).filter(({ path }) => path === '/products/summary');
  expect(summaries.map(({ query }) => query)).toEqual(
    expect.arrayContaining([{ location: BIN.id }, { location: BIN.id, stock: 'out' }]),
  );
});

test('opened filtered by a location (a reload, a link), the figures are what it holds', async () => {
  answerSummary((query) =>
    query.get('location') === BIN.id
      ? { count: 1, units: 5, value: 50, toReorder: 0 }
      : { count: 6, units: 52, value: 640, toReorder: 2 },
  );
  renderRoute(<ProductsPage />, { url: `/?location=${BIN.id}` });
  await screen.findByRole('list', {}, { timeout: 5000 });
  await waitFor(() =>
    expect(screen.getAllByRole('term').map((term) => term.textContent)).toEqual([
      'Total units here',
      'Stock value here at price',
    ]),
  );
  expect(screen.getAllByRole('definition').map((value) => value.textContent)).toEqual([
    '5',
    '$50.00',
  ]);
  expect(screen.getByRole('status')).toHaveTextContent('1 product');
  // The catalogue's figures were never asked for: nothing shows them for a moment either.
  const summaries = (await requests()).filter(({ path }) => path === '/products/summary');
  expect(summaries.length).toBeGreaterThan(0);
  expect(summaries.every(({ query }) => query.location === BIN.id)).toBe(true);
});

test('a location’s page lists what it holds and moves it elsewhere in one transfer', async () => {
  const { user } = renderRoute(<LocationHoldings />, {
    path: '/locations/:locationId',
    url: `/locations/${BIN.id}`,
  });
  const held = within(await screen.findByRole('list', { name: 'What it holds' }));
  expect(held.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
    'Lamp24 units in all',
  ]);
  await user.click(await screen.findByRole('button', { name: 'Move stock' }));
  const form = within(await screen.findByRole('form', { name: 'Move stock' }));
  expect(form.getByRole('combobox', { name: 'From' })).toHaveDisplayValue('Shelf / Bin 4 (5 here)');
  await user.selectOptions(form.getByRole('combobox', { name: 'To' }), 'Main');
  await user.click(form.getByRole('button', { name: 'Move 5 units' }));
  expect(await screen.findByText('Moved 5 units of 1 product')).toBeVisible();
  expect(
    (await requests())
      .filter(({ method, path }) => method === 'POST' && path === '/stock/transfers')
      .map(({ body }) => body),
  ).toEqual([{ lines: [{ productId: 'p1', from: BIN.id, to: MAIN, quantity: 5 }] }]);
});

test('a location’s page moves only what the location holds itself, not its sub-locations’', async () => {
  const SHELF = {
    ...BIN,
    id: '00000000-0000-4000-8000-000000000005',
    name: 'Shelf',
    code: 'L-SHELF5',
    path: 'Shelf',
  };
  const UNDER = { ...BIN, parentId: SHELF.id };
  server.use(
    http.get('/api/locations', () =>
      HttpResponse.json({ locations: [MAIN_LOCATION, SHELF, UNDER] }),
    ),
    // The shelf's list holds what is on it and under it: the lamp is in its bin only.
    http.get('/api/products', () =>
      HttpResponse.json({
        products: [listed({ id: 'p1', name: 'Lamp' }), listed({ id: 'p2', name: 'Chair' })],
        nextCursor: null,
      }),
    ),
    http.get('/api/products/p2', () =>
      HttpResponse.json({
        product: product({
          id: 'p2',
          name: 'Chair',
          stock: 3,
          locations: [{ locationId: SHELF.id, path: SHELF.path, quantity: 3 }],
        }),
      }),
    ),
  );
  const { user } = renderRoute(<LocationHoldings />, {
    path: '/locations/:locationId',
    url: `/locations/${SHELF.id}`,
  });
  await screen.findByRole('list', { name: 'What it holds' });
  await user.click(await screen.findByRole('button', { name: 'Move stock' }));
  const dialog = within(await screen.findByRole('dialog'));
  expect(dialog.getByRole('heading', { name: 'Move 1 product' })).toBeVisible();
  const form = within(await dialog.findByRole('form', { name: 'Move stock' }));
  expect(form.getAllByRole('textbox').map((input) => input.getAttribute('aria-label'))).toEqual([
    'Quantity of Chair to move',
  ]);
  expect(dialog.queryByText(/have none here/)).not.toBeInTheDocument();
  await user.selectOptions(form.getByRole('combobox', { name: 'To' }), 'Main');
  await user.click(form.getByRole('button', { name: 'Move 3 units' }));
  await waitFor(async () =>
    expect(
      (await requests())
        .filter(({ method, path }) => method === 'POST' && path === '/stock/transfers')
        .map(({ body }) => body),
    ).toEqual([{ lines: [{ productId: 'p2', from: SHELF.id, to: MAIN, quantity: 3 }] }]),
  );
});
