import 'fake-indexeddb/auto';
import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Toaster } from '@/components/Toaster.js';
import { queryClient, queryKeys } from '@/lib/query/query-client.js';
import { pendingSnapshot, type QueuedStockChange } from '@/lib/stock-change/index.js';
import { product } from '../features/products/fixtures.js';
import { requests, server } from '../support/server.js';
import { signInAs, tokenFor } from '../support/session.js';

/**
 * The offline stock queue against the browser's IndexedDB (fake-indexeddb, a complete
 * implementation) and the app's real HTTP client, answered at the network.
 */
const USER = { id: 'user-1', name: 'Ada', email: 'ada@example.com' };
let online = true;

beforeEach(async () => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  await signInAs(USER);
});

afterEach(async () => {
  const { forgetQueue } = await import('@/lib/stock-change/offline/queue.js');
  await forgetQueue(USER.id);
  queryClient.clear();
  vi.restoreAllMocks();
});

let made = 0;
const change = (overrides: Partial<QueuedStockChange>): QueuedStockChange => ({
  key: `key-${(made += 1)}`,
  productId: 'p1',
  productName: 'Blue mug',
  delta: 1,
  madeAt: new Date().toISOString(),
  ...overrides,
});

interface Received {
  id: string;
  key: string | null;
  body: unknown;
}

/** The stock endpoint: records what it got; `answer` decides per request. */
function stockEndpoint(answer: (received: Received) => Response | undefined = () => undefined) {
  const received: Received[] = [];
  const stock = new Map<string, number>([
    ['p1', 10],
    ['p2', 3],
  ]);
  server.use(
    http.post('/api/products/:id/stock', async ({ request, params }) => {
      const entry = {
        id: String(params.id),
        key: request.headers.get('Idempotency-Key'),
        body: await request.json(),
      };
      const refusal = answer(entry);
      if (refusal) return refusal;
      received.push(entry);
      const body = entry.body as { delta?: number; count?: number };
      const next = body.count ?? (stock.get(entry.id) ?? 0) + (body.delta ?? 0);
      stock.set(entry.id, next);
      return HttpResponse.json({
        message: 'Stock updated',
        product: product({ id: entry.id, stock: next }),
      });
    }),
  );
  return received;
}

test('changes made offline are kept in order and sent one at a time with their keys', async () => {
  const { queueStockChange, sendQueuedChanges } =
    await import('@/lib/stock-change/offline/queue.js');
  const received = stockEndpoint();
  online = false;
  const changes = [
    change({ delta: 3 }),
    change({ productId: 'p2', productName: 'Red cup', delta: -2 }),
    change({ count: 40, delta: undefined, reason: 'counted', note: 'shelf' }),
  ];
  for (const next of changes) await queueStockChange(next);
  expect(received).toEqual([]);
  expect(pendingSnapshot().changes.map(({ key }) => key)).toEqual(changes.map(({ key }) => key));

  online = true;
  await sendQueuedChanges();
  expect(received).toEqual([
    { id: 'p1', key: changes[0]?.key, body: { delta: 3 } },
    { id: 'p2', key: changes[1]?.key, body: { delta: -2 } },
    { id: 'p1', key: changes[2]?.key, body: { count: 40, reason: 'counted', note: 'shelf' } },
  ]);
  expect(pendingSnapshot().changes).toEqual([]);
});

test('a lost connection during the replay stops it; nothing is lost and the rest goes later', async () => {
  const { queueStockChange, sendQueuedChanges } =
    await import('@/lib/stock-change/offline/queue.js');
  let down = false;
  const received = stockEndpoint(() => (down ? HttpResponse.error() : undefined));
  online = false;
  const first = change({ delta: 1 });
  const second = change({ delta: 2 });
  await queueStockChange(first);
  await queueStockChange(second);

  online = true;
  down = true;
  await sendQueuedChanges();
  expect(received).toEqual([]);
  expect(pendingSnapshot().changes.map(({ key }) => key)).toEqual([first.key, second.key]);

  down = false;
  await sendQueuedChanges();
  expect(received.map(({ key }) => key)).toEqual([first.key, second.key]);
});

test('a change the server refuses is named in a toast and dropped; the rest goes on', async () => {
  const { queueStockChange, sendQueuedChanges } =
    await import('@/lib/stock-change/offline/queue.js');
  render(<Toaster />);
  const received = stockEndpoint(({ id, body }) => {
    if (id === 'gone') return HttpResponse.json({ message: 'Product not found' }, { status: 404 });
    if ((body as { delta?: number }).delta === -50) {
      return HttpResponse.json(
        { message: 'Not enough stock: 10 in stock, cannot take away 50' },
        { status: 409 },
      );
    }
    return undefined;
  });
  online = false;
  await queueStockChange(change({ productId: 'gone', delta: -5 }));
  await queueStockChange(change({ delta: -50 }));
  const last = change({ delta: 4 });
  await queueStockChange(last);

  online = true;
  await sendQueuedChanges();
  expect(
    await screen.findByText("Could not send -5 for 'Blue mug': the product was deleted."),
  ).toBeVisible();
  expect(
    await screen.findByText(
      "Could not send -50 for 'Blue mug': Not enough stock: 10 in stock, cannot take away 50.",
    ),
  ).toBeVisible();
  expect(received.map(({ key }) => key)).toEqual([last.key]);
  expect(pendingSnapshot().changes).toEqual([]);
});

test("a shared catalogue's change goes to its own path; a role's refusal says the server's words", async () => {
  const { queueStockChange, sendQueuedChanges } =
    await import('@/lib/stock-change/offline/queue.js');
  render(<Toaster />);
  const sharedList = queryKeys.productList('c1', {});
  queryClient.setQueryData(sharedList, {
    pages: [{ products: [product({ id: 'p1', stock: 10 })], nextCursor: null }],
    pageParams: [null],
  });
  const received: { catalogue: string; id: string; body: unknown }[] = [];
  server.use(
    http.post('/api/catalogues/:catalogue/products/:id/stock', async ({ request, params }) => {
      const body = await request.json();
      if (params.catalogue === 'c2') {
        return HttpResponse.json(
          { message: 'A viewer cannot adjust stock in this catalogue.' },
          { status: 403 },
        );
      }
      received.push({ catalogue: String(params.catalogue), id: String(params.id), body });
      return HttpResponse.json({
        message: 'Stock updated',
        product: product({ id: String(params.id), stock: 13 }),
      });
    }),
  );
  online = false;
  await queueStockChange(change({ catalogueId: 'c1', delta: 3 }));
  await queueStockChange(change({ catalogueId: 'c2', productId: 'p9', delta: 1 }));

  online = true;
  await sendQueuedChanges();
  expect(received).toEqual([{ catalogue: 'c1', id: 'p1', body: { delta: 3 } }]);
  expect(
    await screen.findByText(
      "Could not send +1 for 'Blue mug': A viewer cannot adjust stock in this catalogue.",
    ),
  ).toBeVisible();
  // The answer lands in that catalogue's cache, not the personal one's.
  const cached = queryClient.getQueryData<{ pages: { products: { stock: number }[] }[] }>(
    sharedList,
  );
  expect(cached?.pages[0]?.products[0]?.stock).toBe(13);
  expect(pendingSnapshot().changes).toEqual([]);
});

test("a queue is only sent under its owner: another user's session sends nothing", async () => {
  const { queueStockChange, sendQueuedChanges, loadQueue } =
    await import('@/lib/stock-change/offline/queue.js');
  const received = stockEndpoint();
  online = false;
  await queueStockChange(change({ delta: 1 }));

  queryClient.setQueryData(queryKeys.user, { ...USER, id: 'user-2' });
  online = true;
  await sendQueuedChanges();
  expect(received).toEqual([]);
  expect(await loadQueue(USER.id)).toHaveLength(1);
  queryClient.setQueryData(queryKeys.user, USER);
});

test("a tab still showing its user after another's login elsewhere sends none of her changes", async () => {
  const { queueStockChange, sendQueuedChanges, loadQueue } =
    await import('@/lib/stock-change/offline/queue.js');
  const received = stockEndpoint();
  online = false;
  const kept = change({ delta: 1 });
  await queueStockChange(kept);

  // Another tab logged her out and Zed in: the token is his, this tab still has her as its user.
  localStorage.setItem('AccessToken', tokenFor({ ...USER, id: 'user-2', name: 'Zed' }, 'token-2'));
  online = true;
  await sendQueuedChanges();
  expect(received).toEqual([]);
  expect(await loadQueue(USER.id)).toHaveLength(1);

  // She signs in again: her change goes, with her token.
  await signInAs(USER, 'token-3');
  await sendQueuedChanges();
  expect(received.map(({ key }) => key)).toEqual([kept.key]);
  const posts = (await requests()).filter(({ method }) => method === 'POST');
  expect(posts.map(({ authorization }) => authorization)).toEqual(['Bearer token-3']);
});

test('the queue outlives the page: a fresh copy of the app reads it back', async () => {
  const first = await import('@/lib/stock-change/offline/queue.js');
  online = false;
  const kept = [change({ delta: 2 }), change({ delta: -1 })];
  for (const next of kept) await first.queueStockChange(next);

  vi.resetModules();
  const reloaded = await import('@/lib/stock-change/offline/queue.js');
  const { queryClient: freshClient, queryKeys: keys } = await import('@/lib/query/query-client.js');
  freshClient.setQueryData(keys.user, USER);
  expect(await reloaded.loadQueue(USER.id)).toEqual(kept);
  freshClient.clear();
});
