import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test, vi } from 'vitest';
import { ScanScreen } from '@/features/scan/components/ScanScreen.js';
import { product } from '../products/fixtures.js';
import { renderRoute } from '../../support/render.js';
import { BIN_LOCATION, MAIN_LOCATION, requests, server } from '../../support/server.js';

/**
 * The scan screen with locations, codes typed as a scanner would: a location's code makes it
 * the current location; Move takes from, products and to, and sends one transfer.
 */
const MAIN = MAIN_LOCATION.id;
const BIN = BIN_LOCATION;
const MUG = product({ id: 'p1', name: 'Blue mug', sku: 'MUG1', stock: 7 });
const CUP = product({ id: 'p2', name: 'Red cup', sku: 'CUP1', stock: 4 });

// Several scans, each a few requests: more than the default five seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  localStorage.clear();
  server.use(
    // The bin is answered by the lookup; Main only by the tree (a server that knows products only).
    http.get('/api/products/lookup', ({ request }) => {
      const code = new URL(request.url).searchParams.get('code');
      if (code === 'L-BIN004') return HttpResponse.json({ location: BIN });
      const found = [MUG, CUP].find((one) => one.sku === code);
      return found
        ? HttpResponse.json({ product: found })
        : HttpResponse.json({ message: 'No product has this code' }, { status: 404 });
    }),
    http.get('/api/locations', () => HttpResponse.json({ locations: [MAIN_LOCATION, BIN] })),
    http.get('/api/products/:id', ({ params }) =>
      HttpResponse.json({
        product: {
          ...(params.id === 'p1' ? MUG : CUP),
          locations: [
            { locationId: MAIN, path: 'Main', quantity: 5 },
            { locationId: BIN.id, path: BIN.path, quantity: 2 },
          ],
        },
      }),
    ),
    http.post('/api/products/:id/stock', () =>
      HttpResponse.json({ message: 'Stock updated', product: { ...MUG, stock: 8 } }),
    ),
    http.post('/api/stock/transfers', () =>
      HttpResponse.json({ message: 'Moved 3 units of 2 products', products: [] }),
    ),
  );
});

const openScan = () => renderRoute(<ScanScreen />, { path: '/scan' });

const posted = async (path: string) =>
  (await requests())
    .filter((request) => request.method === 'POST' && request.path === path)
    .map(({ body }) => body);

test('a location scanned is where Receive applies, with the quantity there, until cleared', async () => {
  const { user } = openScan();
  const scan = async (code: string) => {
    await user.type(screen.getByLabelText('Type a code'), code);
    await user.click(screen.getByRole('button', { name: 'Find' }));
  };
  await scan('L-BIN004');
  const current = await screen.findByRole('region', { name: 'Current location' });
  expect(current).toHaveTextContent('At Shelf / Bin 4');

  await scan('MUG1');
  expect(await screen.findByTestId('scan-here')).toHaveTextContent('3');
  expect(screen.getByText('At Shelf / Bin 4:')).toBeVisible();

  await user.click(within(current).getByRole('button', { name: 'Clear' }));
  expect(screen.queryByRole('region', { name: 'Current location' })).toBeNull();
  await scan('MUG1');
  await waitFor(async () => expect(await posted('/products/p1/stock')).toHaveLength(2));
  expect(await posted('/products/p1/stock')).toEqual([
    { delta: 1, reason: 'received', note: 'scan', locationId: BIN.id },
    { delta: 1, reason: 'received', note: 'scan' },
  ]);
});

test('Move takes from, products with quantities, and to, then sends one transfer', async () => {
  const { user } = openScan();
  const scan = async (code: string) => {
    await user.type(screen.getByLabelText('Type a code'), code);
    await user.click(screen.getByRole('button', { name: 'Find' }));
  };
  await user.click(screen.getByRole('button', { name: 'Move' }));
  const move = screen.getByRole('region', { name: 'Move' });
  expect(move).toHaveTextContent('Scan the location to take from.');

  await scan('MUG1');
  expect(await screen.findByText('First scan where to take it from.')).toBeVisible();

  // Main's code is not one the lookup knows: the catalogue's tree finds it.
  await scan('l-main01');
  expect(await within(move).findByText('Main')).toBeVisible();
  await scan('MUG1');
  await scan('MUG1');
  await scan('CUP1');
  const lines = within(await within(move).findByRole('list', { name: 'To move' }));
  await waitFor(() =>
    expect(lines.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Blue mug2Remove',
      'Red cup1Remove',
    ]),
  );
  await scan('L-BIN004');
  expect(await screen.findByText('Moved 3 units of 2 products')).toBeVisible();
  expect(await posted('/stock/transfers')).toEqual([
    {
      lines: [
        { productId: 'p1', from: MAIN, to: BIN.id, quantity: 2 },
        { productId: 'p2', from: MAIN, to: BIN.id, quantity: 1 },
      ],
    },
  ]);
  expect(move).toHaveTextContent('Scan the location to take from.');
});
