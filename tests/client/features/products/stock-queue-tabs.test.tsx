import 'fake-indexeddb/auto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { StockQueueRunner } from '@/features/offline-queue/components/StockQueueRunner.js';
import { ProductsPage } from '@/features/products/components/ProductsPage.js';
import { queryClient } from '@/lib/query/query-client.js';
import { renderRoute } from '../../support/render.js';
import { server } from '../../support/server.js';
import { signInAs } from '../../support/session.js';
import { answerMovements, answerSummary } from './catalogue.js';
import { listed, product } from './fixtures.js';

/**
 * Stock changes made offline and sent by another tab of the browser (they share its IndexedDB and
 * local storage): this tab, which showed them as waiting, shows the stock they left.
 */
const USER = { id: 'user-1', name: 'Ada', email: 'ada@example.com' };
let online = true;
let stock = 5;
let received: unknown[] = [];

// This tab's queue, loaded before another tab's modules are (openOtherTab).
const thisTab = await import('@/lib/stock-change/offline/queue.js');

beforeEach(async () => {
  online = true;
  stock = 5;
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
      const body = (await request.json()) as { delta?: number; count?: number };
      received.push(body);
      stock = body.count ?? stock + (body.delta ?? 0);
      return HttpResponse.json({ message: 'Stock updated', product: product({ stock }) });
    }),
  );
  await signInAs(USER);
});

afterEach(async () => {
  await thisTab.forgetQueue(USER.id);
  act(() => queryClient.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/**
 * Another tab: the app's modules loaded afresh (a query client and a queue of its own), the
 * same user signed in.
 */
async function openOtherTab() {
  vi.resetModules();
  const { queryClient: client } = await import('@/lib/query/query-client.js');
  const queue = await import('@/lib/stock-change/offline/queue.js');
  await signInAs(USER, 'token-1', client);
  return { client, queue };
}

/** This tab: the list and the runner of its queue, with two changes made offline on its card. */
async function twoChangesWaiting() {
  const { user } = renderRoute(
    <>
      <ProductsPage />
      <StockQueueRunner userId={USER.id} />
    </>,
    { queryClient },
  );
  const card = within(await screen.findByRole('listitem'));
  online = false;
  await user.click(card.getByRole('button', { name: 'Increase stock of Desk Lamp' }));
  await user.click(card.getByRole('button', { name: 'Increase stock of Desk Lamp' }));
  expect(await card.findByText('+2 waiting to be sent')).toBeVisible();
  expect(card.getByText('7 units')).toBeVisible();
  // The runner has started (two seconds after the page settled): its queue is loaded.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  return card;
}

it(
  'the changes another tab sends show here as sent, at the stock they left',
  { timeout: 20_000 },
  async () => {
    const card = await twoChangesWaiting();
    const other = await openOtherTab();

    online = true;
    await other.queue.sendQueuedChanges();
    expect(received).toEqual([{ delta: 1 }, { delta: 1 }]);

    await waitFor(() => expect(card.queryByText(/waiting to be sent/)).toBeNull());
    expect(card.getByText('7 units')).toBeVisible();

    // This tab's own turn (the 'online' event): nothing left to send, nothing sent twice.
    act(() => void window.dispatchEvent(new Event('online')));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(card.getByText('7 units')).toBeVisible();
    expect(received).toHaveLength(2);
    other.client.clear();
  },
);

it(
  'without word from the other tab, this one reads the stock again once it finds them gone',
  { timeout: 20_000 },
  async () => {
    // A browser without BroadcastChannel, or a word this tab missed.
    vi.stubGlobal('BroadcastChannel', undefined);
    const card = await twoChangesWaiting();
    const other = await openOtherTab();

    online = true;
    await other.queue.sendQueuedChanges();
    expect(received).toHaveLength(2);

    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(card.queryByText(/waiting to be sent/)).toBeNull());
    await waitFor(() => expect(card.getByText('7 units')).toBeVisible());
    expect(received).toHaveLength(2);
    other.client.clear();
  },
);
