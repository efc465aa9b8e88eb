import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test, vi } from 'vitest';
import { ScanScreen } from '@/features/scan/components/ScanScreen.js';
import { product } from '../products/fixtures.js';
import { renderRoute } from '../../support/render.js';
import { BIN_LOCATION, MAIN_LOCATION, requests, server } from '../../support/server.js';

/**
 * Count mode into an open count: each scan of a product adds to its line at the current
 * location (the count's own before one is scanned); the line can be set outright; stock is not
 * touched.
 */
const MUG = product({ id: 'p1', name: 'Blue mug', sku: 'MUG1', stock: 7 });
const COUNT = {
  id: '00000000-0000-4000-8000-0000000000c1',
  name: 'Shelf count',
  scope: { kind: 'location', locationId: MAIN_LOCATION.id, path: 'Main' },
  blind: true,
  status: 'open',
  createdBy: null,
  createdAt: '2026-12-01T09:00:00.000Z',
  lines: 0,
};

vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('scanMode', 'count');
  let counted = 0;
  server.use(
    http.get('/api/products/lookup', ({ request }) => {
      const code = new URL(request.url).searchParams.get('code');
      if (code === 'L-BIN004') return HttpResponse.json({ location: BIN_LOCATION });
      return code === 'MUG1'
        ? HttpResponse.json({ product: MUG })
        : HttpResponse.json({ message: 'No product has this code' }, { status: 404 });
    }),
    http.get('/api/locations', () =>
      HttpResponse.json({ locations: [MAIN_LOCATION, BIN_LOCATION] }),
    ),
    http.get('/api/counts', () => HttpResponse.json({ counts: [COUNT] })),
    http.post(`/api/counts/${COUNT.id}/lines`, async ({ request }) => {
      const body = (await request.json()) as { counted: number; add: boolean; locationId: string };
      counted = body.add ? counted + body.counted : body.counted;
      return HttpResponse.json({
        message: 'Counted',
        line: {
          productId: MUG.id,
          name: MUG.name,
          sku: MUG.sku,
          barcode: null,
          locationId: body.locationId,
          counted,
          countedBy: null,
          countedAt: new Date().toISOString(),
        },
      });
    }),
  );
});

const posted = async (path: string) =>
  (await requests())
    .filter((request) => request.method === 'POST' && request.path === path)
    .map(({ body }) => body);

test('each scan adds to the line at the current location, and the line can be set', async () => {
  const { user } = renderRoute(<ScanScreen />, { path: '/scan' });
  const scan = async (code: string) => {
    await user.type(screen.getByLabelText('Type a code'), code);
    await user.click(screen.getByRole('button', { name: 'Find' }));
  };
  await user.selectOptions(await screen.findByLabelText('Count into'), 'Shelf count');

  await scan('MUG1');
  expect(await screen.findByText('Counted at Main:')).toBeVisible();
  await waitFor(() => expect(screen.getByTestId('scan-line')).toHaveTextContent('1'));

  await scan('L-BIN004');
  await screen.findByRole('region', { name: 'Current location' });
  await scan('MUG1');
  await waitFor(() => expect(screen.getByTestId('scan-line')).toHaveTextContent('2'));
  expect(screen.getByText('Counted at Shelf / Bin 4:')).toBeVisible();

  await user.type(screen.getByLabelText('Set the line to'), '12');
  await user.click(screen.getByRole('button', { name: 'Set' }));
  await waitFor(() => expect(screen.getByTestId('scan-line')).toHaveTextContent('12'));

  expect(await posted(`/counts/${COUNT.id}/lines`)).toEqual([
    { productId: MUG.id, locationId: MAIN_LOCATION.id, counted: 1, add: true },
    { productId: MUG.id, locationId: BIN_LOCATION.id, counted: 1, add: true },
    { productId: MUG.id, locationId: BIN_LOCATION.id, counted: 12, add: false },
  ]);
  expect(await posted(`/products/${MUG.id}/stock`)).toEqual([]);
});
