import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test, vi } from 'vitest';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { renderRoute } from '../../support/render.js';
import { BIN_LOCATION, MAIN_LOCATION, requests, server } from '../../support/server.js';
import { answerSummary } from './catalogue.js';
import { listed, product } from './fixtures.js';

/** The list's selection moves stock: each product's places read, one transfer for them all. */
const MAIN = MAIN_LOCATION.id;
const BIN = BIN_LOCATION;
const held: Record<string, number> = { p0: 4, p1: 0, p2: 6 };
const NAMES = ['Lamp', 'Chair', 'Desk'];

vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  answerSummary();
  server.use(
    http.get('/api/products', () =>
      HttpResponse.json({
        products: NAMES.map((name, i) => listed({ id: `p${i}`, name })),
        nextCursor: null,
      }),
    ),
    http.get('/api/locations', () => HttpResponse.json({ locations: [MAIN_LOCATION, BIN] })),
    http.get('/api/products/:id', ({ params }) => {
      const id = String(params.id);
      const index = Number(id.slice(1));
      const quantity = held[id] ?? 0;
      return HttpResponse.json({
        product: product({
          id,
          name: NAMES[index],
          stock: quantity + 1,
          locations: [
            ...(quantity > 0 ? [{ locationId: MAIN, path: 'Main', quantity }] : []),
            { locationId: BIN.id, path: BIN.path, quantity: 1 },
          ],
        }),
      });
    }),
    http.post('/api/stock/transfers', () =>
      HttpResponse.json({ message: 'Moved 7 units of 2 products', products: [] }),
    ),
  );
});

test('Move beside the selection moves all or part of what each holds at From, in one go', async () => {
  const renderedUser = renderRoute(<ProductsPage />).user;
  await screen.findByRole('list', {}, { timeout: 5000 });
  await renderedUser.click(screen.getByRole('checkbox', { name: 'Select all on page' }));
  const bar = within(await screen.findByRole('region', { name: 'Selected products' }));
  await renderedUser.click(await bar.findByRole('button', { name: 'Move' }));
  const form = within(await screen.findByRole('form', { name: 'Move stock' }));
  expect(form.getByRole('combobox', { name: 'From' })).toHaveDisplayValue('Main');
  expect(form.getByText('1 of the products have none here.')).toBeVisible();
  await renderedUser.selectOptions(form.getByRole('combobox', { name: 'To' }), BIN.path);
  const desk = form.getByRole('textbox', { name: 'Quantity of Desk to move' });
  expect(desk).toHaveValue('6');
  await renderedUser.clear(desk);
  await renderedUser.type(desk, '3');
  await renderedUser.click(form.getByRole('button', { name: 'Move 7 units' }));
  expect(await screen.findByText('Moved 7 units of 2 products')).toBeVisible();
  await waitFor(async () =>
    expect(
      (await requests())
        .filter(({ path, method }) => method === 'POST' && path === '/stock/transfers')
        .map(({ body }) => body),
    ).toEqual([
      {
        lines: [
          { productId: 'p0', from: MAIN, to: BIN.id, quantity: 4 },
          { productId: 'p2', from: MAIN, to: BIN.id, quantity: 3 },
        ],
      },
    ]),
  );
});

test('a catalogue with only its default location offers no Move', async () => {
  server.use(http.get('/api/locations', () => HttpResponse.json({ locations: [MAIN_LOCATION] })));
  const { user } = renderRoute(<ProductsPage />);
  await screen.findByRole('list', {}, { timeout: 5000 });
  await user.click(screen.getByRole('checkbox', { name: 'Select Lamp' }));
  const bar = within(await screen.findByRole('region', { name: 'Selected products' }));
  await waitFor(async () =>
    expect((await requests()).some(({ path }) => path === '/locations')).toBe(true),
  );
  expect(bar.getByRole('button', { name: 'Print labels' })).toBeVisible();
  expect(bar.queryByRole('button', { name: 'Move' })).toBeNull();
});
