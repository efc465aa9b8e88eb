import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ProductDetails } from '@/features/products/components/ProductDetails.js';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { queryClient } from '@/lib/query/query-client.js';
import { renderRoute } from '../../support/render.js';
import { server } from '../../support/server.js';
import { signInAs } from '../../support/session.js';
import { answerMovements, answerSummary } from './catalogue.js';
import { listed, product } from './fixtures.js';

/**
 * The stepper when the server cannot be reached: changes wait in the browser (IndexedDB, here
 * fake-indexeddb), the product shows them as waiting, and they go out in order later.
 */
const USER = { id: 'user-1', name: 'Ada', email: 'ada@example.com' };
let online = true;
let reachable = true;
let stock = 3;
let received: { key: string | null; body: unknown }[] = [];

beforeEach(async () => {
  online = true;
  reachable = true;
  stock = 3;
  received = [];
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  answerSummary();
  answerMovements();
  server.use(
    http.get('/api/products', () =>
      HttpResponse.json({ products: [listed({ stock })], nextCursor: null }),
    ),
    http.get('/api/products/p1', () => HttpResponse.json({ product: product({ stock }) })),
    http.post('/api/products/p1/stock', async ({ request }) => {
      if (!reachable) return HttpResponse.error();
      const body = (await request.json()) as { delta?: number; count?: number };
      received.push({ key: request.headers.get('Idempotency-Key'), body });
      stock = body.count ?? stock + (body.delta ?? 0);
      return HttpResponse.json({ message: 'Stock updated', product: product({ stock }) });
    }),
  );
  await signInAs(USER);
});

afterEach(async () => {
  const { forgetQueue } = await import('@/lib/stock-change/offline/queue.js');
  await forgetQueue(USER.id);
  queryClient.clear();
  vi.restoreAllMocks();
});

const sendNow = async () =>
  (await import('@/lib/stock-change/offline/queue.js')).sendQueuedChanges();

it('offline, each change waits and the card shows it as waiting; back online they go in order', async () => {
  const { user } = renderRoute(<ProductsPage />, { queryClient });
  const card = within(await screen.findByRole('listitem'));
  online = false;
  await user.click(card.getByRole('button', { name: 'Increase stock of Desk Lamp' }));
  await user.click(card.getByRole('button', { name: 'Increase stock of Desk Lamp' }));
  expect(await card.findByText('+2 waiting to be sent')).toBeVisible();
  expect(card.getByText('5 units')).toBeVisible();
  expect(received).toEqual([]);

  online = true;
  await sendNow();
  await waitFor(() => expect(card.queryByText(/waiting to be sent/)).toBeNull());
  expect(card.getByText('5 units')).toBeVisible();
  expect(received.map(({ body }) => body)).toEqual([{ delta: 1 }, { delta: 1 }]);
  const [first, second] = received.map(({ key }) => key);
  expect(first).toMatch(/^[0-9a-f-]{36}$/);
  expect(second).not.toBe(first);
});

it('a change whose request got no answer waits with the key it was sent with, and no error', async () => {
  const attempts: (string | null)[] = [];
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'POST') attempts.push(request.headers.get('Idempotency-Key'));
  });
  const { user } = renderRoute(<ProductsPage />, { queryClient });
  const card = within(await screen.findByRole('listitem'));
  reachable = false;
  await user.click(card.getByRole('button', { name: 'Decrease stock of Desk Lamp' }));
  expect(await card.findByText('-1 waiting to be sent')).toBeVisible();
  expect(card.getByText('2 units')).toBeVisible();
  expect(screen.queryByRole('alert')).toBeNull();

  reachable = true;
  await sendNow();
  await waitFor(() => expect(card.queryByText(/waiting to be sent/)).toBeNull());
  expect(received.map(({ body }) => body)).toEqual([{ delta: -1 }]);
  // Every attempt is the same change under one key: the server applies it once.
  expect(attempts.length).toBeGreaterThanOrEqual(2);
  expect(new Set(attempts).size).toBe(1);
  expect(attempts[0]).toMatch(/^[0-9a-f-]{36}$/);
  server.events.removeAllListeners('request:start');
});

it('the product page shows a count waiting, then the changes after it', async () => {
  const { user } = renderRoute(<ProductDetails />, {
    queryClient,
    path: '/details/product/:productId',
    url: '/details/product/p1',
  });
  expect(await screen.findByText('In Stock: 3')).toBeVisible();
  online = false;
  await user.type(screen.getByLabelText('New stock of Desk Lamp'), '40');
  await user.click(screen.getByRole('button', { name: 'Set stock of Desk Lamp' }));
  await user.click(screen.getByRole('button', { name: 'Decrease stock of Desk Lamp' }));
  expect(await screen.findByText('Set 40, then -1 waiting to be sent')).toBeVisible();
  expect(screen.getByText('In Stock: 39')).toBeVisible();
});
