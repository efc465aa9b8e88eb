import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test, vi } from 'vitest';
import { ProductDetails } from '@/features/products/components/ProductDetails.js';
import { renderRoute } from '../../support/render.js';
import { MAIN_LOCATION, requests, server } from '../../support/server.js';
import { answerMovements } from './catalogue.js';
import { product } from './fixtures.js';

/** The product page of a catalogue with two places: Main holds 5 of the lamp, Bin 4 holds 2. */
const BIN = { ...MAIN_LOCATION, id: '00000000-0000-4000-8000-000000000004', name: 'Bin 4' };
const MAIN = MAIN_LOCATION.id;
const bin = { ...BIN, parentId: null, code: 'L-BIN004', path: 'Shelf / Bin 4', isDefault: false };

// A page, its locations and several changes: more than five seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let places = [
  { locationId: MAIN, path: 'Main', quantity: 5 },
  { locationId: bin.id, path: bin.path, quantity: 2 },
];

beforeEach(() => {
  places = [
    { locationId: MAIN, path: 'Main', quantity: 5 },
    { locationId: bin.id, path: bin.path, quantity: 2 },
  ];
  answerMovements();
  server.use(
    http.get('/api/locations', () => HttpResponse.json({ locations: [MAIN_LOCATION, bin] })),
    http.get('/api/products/p1', () =>
      HttpResponse.json({ product: product({ stock: 7, locations: places }) }),
    ),
    http.post('/api/products/p1/stock', () =>
      HttpResponse.json({ message: 'Stock updated', product: product({ stock: 8 }) }),
    ),
  );
});

const openPage = async () => {
  const rendered = renderRoute(<ProductDetails />, {
    path: '/details/product/:productId',
    url: '/details/product/p1',
  });
  await screen.findByRole('heading', { name: 'Desk Lamp', level: 1 });
  return rendered;
};

const posted = async (path: string) =>
  (await requests()).filter((request) => request.method === 'POST' && request.path === path);

test('the stepper changes the location chosen, the default one first', async () => {
  const { user } = await openPage();
  const at = await screen.findByRole('combobox', { name: 'At' });
  expect(at).toHaveDisplayValue('Main (5 here)');
  await user.click(screen.getByRole('button', { name: 'Increase stock of Desk Lamp' }));
  await user.selectOptions(at, 'Shelf / Bin 4 (2 here)');
  expect(screen.getByLabelText('New stock of Desk Lamp')).toHaveAttribute('placeholder', '2');
  await user.type(screen.getByLabelText('New stock of Desk Lamp'), '6');
  await user.click(screen.getByRole('button', { name: 'Set stock of Desk Lamp' }));
  await waitFor(async () => expect(await posted('/products/p1/stock')).toHaveLength(2));
  expect((await posted('/products/p1/stock')).map(({ body }) => body)).toEqual([
    { delta: 1, locationId: MAIN },
    { count: 6, locationId: bin.id },
  ]);
});

test('moves part of what one location holds to another, in one transfer', async () => {
  const keys: (string | null)[] = [];
  server.use(
    http.post('/api/stock/transfers', ({ request }) => {
      keys.push(request.headers.get('Idempotency-Key'));
      places = [
        { locationId: MAIN, path: 'Main', quantity: 2 },
        { locationId: bin.id, path: bin.path, quantity: 5 },
      ];
      return HttpResponse.json({ message: 'Moved 3 units of 1 product', products: [] });
    }),
  );
  const { user } = await openPage();
  await user.click(await screen.findByText('Move stock'));
  const form = within(screen.getByRole('form', { name: 'Move stock' }));
  expect(form.getByRole('combobox', { name: 'From' })).toHaveDisplayValue('Main (5 here)');
  await user.selectOptions(form.getByRole('combobox', { name: 'To' }), 'Shelf / Bin 4');
  const quantity = form.getByRole('textbox', { name: 'Quantity of Desk Lamp to move' });
  expect(quantity).toHaveValue('5');
  await user.clear(quantity);
  await user.type(quantity, '3');
  await user.click(form.getByRole('button', { name: 'Move 3 units' }));
  expect(await screen.findByText('Moved 3 units of 1 product')).toBeVisible();
  expect((await posted('/stock/transfers')).map(({ body }) => body)).toEqual([
    { lines: [{ productId: 'p1', from: MAIN, to: bin.id, quantity: 3 }] },
  ]);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  const where = within(screen.getByRole('list', { name: 'Where it is' }));
  await waitFor(() =>
    expect(where.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Main2',
      'Shelf / Bin 45',
    ]),
  );
});

test('more than a location holds is not sent', async () => {
  const { user } = await openPage();
  await user.click(await screen.findByText('Move stock'));
  const form = within(screen.getByRole('form', { name: 'Move stock' }));
  await user.selectOptions(form.getByRole('combobox', { name: 'To' }), 'Shelf / Bin 4');
  const quantity = form.getByRole('textbox', { name: 'Quantity of Desk Lamp to move' });
  await user.clear(quantity);
  await user.type(quantity, '9');
  await user.click(form.getByRole('button', { name: 'Move 9 units' }));
  expect(form.getByRole('alert')).toHaveTextContent('Desk Lamp: 0 to 5 can move.');
  expect(await posted('/stock/transfers')).toEqual([]);
});
