import 'fake-indexeddb/auto';
import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Toaster } from '@/components/Toaster.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { queryClient, queryKeys } from '@/lib/query/query-client.js';
import { pendingSnapshot } from '@/lib/stock-change/index.js';
import { product } from '../features/products/fixtures.js';
import { server } from '../support/server.js';
import { signInAs } from '../support/session.js';

/**
 * Moves and changes at one location through the one stock-change module: sent now or kept in
 * the browser's queue (fake-indexeddb) and replayed once, with their keys, by the app's real HTTP
 * client answered at the network.
 */
const USER = { id: 'user-1', name: 'Ada', email: 'ada@example.com' };
const BIN = '11111111-1111-4111-8111-111111111111';
const MAIN = '22222222-2222-4222-8222-222222222222';
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

interface Received {
  key: string | null;
  source: string | null;
  body: unknown;
}

/** The transfers endpoint: records each request; a key seen before is answered, not applied. */
function transfersEndpoint(answer: (received: Received) => Response | undefined = () => undefined) {
  const applied: Received[] = [];
  const seen = new Set<string>();
  server.use(
    http.post('/api/stock/transfers', async ({ request }) => {
      const entry = {
        key: request.headers.get('Idempotency-Key'),
        source: request.headers.get('Stockroom-Source'),
        body: await request.json(),
      };
      const refusal = answer(entry);
      if (refusal) return refusal;
      if (!seen.has(entry.key ?? '')) applied.push(entry);
      seen.add(entry.key ?? '');
      return HttpResponse.json({ message: 'Moved 3 units of 1 product', products: [] });
    }),
  );
  return applied;
}

const line = { productId: 'p1', productName: 'Blue mug', from: MAIN, to: BIN, quantity: 3 };

test('a move made offline waits in the queue, then goes once with its key', async () => {
  const { moveStock } = await import('@/lib/stock-change/moves/move.js');
  const { sendQueuedChanges } = await import('@/lib/stock-change/offline/queue.js');
  const applied = transfersEndpoint();
  online = false;
  const result = await moveStock(queryClient, {
    catalogue: undefined,
    lines: [line],
    toPath: 'Bin 4',
    source: 'scan',
  });
  expect(result).toEqual({ queued: true });
  const [waiting] = pendingSnapshot().changes;
  expect(waiting?.kind).toBe('move');
  expect(applied).toEqual([]);

  online = true;
  await sendQueuedChanges();
  await sendQueuedChanges();
  expect(applied).toEqual([
    {
      key: waiting?.key,
      source: 'scan',
      body: { lines: [{ productId: 'p1', from: MAIN, to: BIN, quantity: 3 }] },
    },
  ]);
  expect(pendingSnapshot().changes).toEqual([]);
});

test('a move online shows on the product page at once and is taken back when refused', async () => {
  const { moveStock } = await import('@/lib/stock-change/moves/move.js');
  queryClient.setQueryData(
    ['locations', 'personal'],
    [
      { id: MAIN, path: 'Main' },
      { id: BIN, path: 'Shelf / Bin 4' },
    ],
  );
  queryClient.setQueryData(queryKeys.product(undefined, 'p1'), {
    ...product({ id: 'p1', stock: 5 }),
    locations: [{ locationId: MAIN, path: 'Main', quantity: 5 }],
  });
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  server.use(
    http.post('/api/stock/transfers', async () => {
      await held;
      return HttpResponse.json(
        { message: 'Not enough Blue mug at Main: 5 there, cannot move 9' },
        { status: 409 },
      );
    }),
  );
  const sending = moveStock(queryClient, {
    catalogue: undefined,
    lines: [{ ...line, quantity: 3 }],
    toPath: 'Shelf / Bin 4',
    source: 'form',
  });
  await vi.waitFor(() =>
    expect(
      queryClient.getQueryData<{ locations: unknown[] }>(queryKeys.product(undefined, 'p1'))
        ?.locations,
    ).toEqual([
      { locationId: MAIN, path: 'Main', quantity: 2 },
      { locationId: BIN, path: 'Shelf / Bin 4', quantity: 3 },
    ]),
  );
  server.use(http.get('/api/products/p1', () => new Promise<Response>(() => undefined)));
  release();
  const error: unknown = await sending.catch((reason: unknown) => reason);
  expect(getErrorMessage(error)).toBe('Not enough Blue mug at Main: 5 there, cannot move 9');
  expect(
    queryClient.getQueryData<{ locations: unknown[] }>(queryKeys.product(undefined, 'p1'))
      ?.locations,
  ).toEqual([{ locationId: MAIN, path: 'Main', quantity: 5 }]);
  expect(pendingSnapshot().changes).toEqual([]);
});

test('a move that got no answer is kept with its key and replayed once', async () => {
  const { moveStock } = await import('@/lib/stock-change/moves/move.js');
  const { sendQueuedChanges } = await import('@/lib/stock-change/offline/queue.js');
  const keys: (string | null)[] = [];
  let down = true;
  transfersEndpoint((received) => {
    keys.push(received.key);
    return down ? HttpResponse.error() : undefined;
  });
  const result = await moveStock(queryClient, {
    catalogue: undefined,
    lines: [line],
    toPath: 'Bin 4',
    source: 'form',
  });
  expect(result).toEqual({ queued: true });
  down = false;
  await sendQueuedChanges();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  expect(pendingSnapshot().changes).toEqual([]);
});

test('a refused move and a change at a location are named with where; the rest goes on', async () => {
  const { moveStock } = await import('@/lib/stock-change/moves/move.js');
  const { queueStockChange, sendQueuedChanges } =
    await import('@/lib/stock-change/offline/queue.js');
  render(<Toaster />);
  transfersEndpoint(() =>
    HttpResponse.json(
      { message: 'Not enough Blue mug at Main: 1 there, cannot move 3' },
      { status: 409 },
    ),
  );
  const stockBodies: unknown[] = [];
  server.use(
    http.post('/api/products/:id/stock', async ({ request, params }) => {
      const body = (await request.json()) as { locationId?: string };
      stockBodies.push(body);
      if (params.id === 'gone') {
        return HttpResponse.json({ message: 'Location not found' }, { status: 404 });
      }
      return HttpResponse.json({ message: 'Stock updated', product: product({ id: 'p2' }) });
    }),
  );
  online = false;
  await moveStock(queryClient, {
    catalogue: undefined,
    lines: [line, { ...line, productId: 'p2', productName: 'Red cup' }],
    toPath: 'Bin 4',
    source: 'scan',
  });
  await queueStockChange({
    key: 'k-gone',
    productId: 'gone',
    productName: 'Green jug',
    delta: -1,
    locationId: BIN,
    locationPath: 'Bin 4',
    madeAt: new Date().toISOString(),
  });
  await queueStockChange({
    key: 'k-count',
    productId: 'p2',
    productName: 'Red cup',
    count: 7,
    shift: 2,
    locationId: BIN,
    locationPath: 'Bin 4',
    madeAt: new Date().toISOString(),
  });
  online = true;
  await sendQueuedChanges();
  expect(
    await screen.findByText(
      "Could not send the move of 6 units to Bin 4 for 'Blue mug' and 1 more: Not enough Blue mug at Main: 1 there, cannot move 3.",
    ),
  ).toBeVisible();
  expect(
    await screen.findByText("Could not send -1 at Bin 4 for 'Green jug': Location not found."),
  ).toBeVisible();
  expect(stockBodies).toEqual([
    { delta: -1, locationId: BIN },
    { count: 7, locationId: BIN },
  ]);
  expect(pendingSnapshot().changes).toEqual([]);
});

test('the stock shown counts a waiting count at a location by how far it moves the total', async () => {
  const { stockWithPending, pendingLabel } = await import('@/lib/stock-change/index.js');
  const waiting = [
    { key: 'a', productId: 'p1', productName: 'Blue mug', delta: 2, madeAt: '' },
    {
      key: 'b',
      productId: 'p1',
      productName: 'Blue mug',
      count: 7,
      shift: -3,
      locationId: BIN,
      madeAt: '',
    },
  ];
  expect(stockWithPending(10, waiting)).toBe(9);
  expect(pendingLabel(waiting)).toBe('-1 waiting to be sent');
});
