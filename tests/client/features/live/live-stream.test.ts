import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { afterEach, expect, test, vi } from 'vitest';
import type { ProductListResponse } from '@shared/schemas/products.js';
import { startLiveUpdates } from '@/features/live/live-stream.js';
import { noteTokenOwner } from '@/lib/auth/token.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { setUnauthorizedHandler } from '@/lib/unauthorized.js';
import { listed } from '../products/fixtures.js';
import { server } from '../../support/server.js';

/**
 * The stream client against GET /api/events answered at the network: the real fetch, parser and
 * schemas, and the reconnect that follows a dropped stream.
 */
let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  setUnauthorizedHandler(undefined);
});

const LIST = queryKeys.productList(undefined, {});

function cachedList() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData<InfiniteData<ProductListResponse>>(LIST, {
    pages: [{ products: [listed({ id: 'p1', stock: 3 })], nextCursor: null }],
    pageParams: [null],
  });
  return client;
}

const stockIn = (client: QueryClient) =>
  client.getQueryData<InfiniteData<ProductListResponse>>(LIST)?.pages[0]?.products[0]?.stock;

/** A response that sends these frames, then ends (a dropped connection). */
const streamOf = (frames: string[]) =>
  new HttpResponse(
    new ReadableStream({
      start(controller) {
        for (const frame of frames) controller.enqueue(new TextEncoder().encode(frame));
        controller.close();
      },
    }),
    { headers: { 'Content-Type': 'text/event-stream' } },
  );

const stockChanged = (id: number, stock: number) =>
  `id: ${id}\nevent: stock.changed\ndata: {"catalogueId":"u1","id":"p1","stock":${stock},"updatedAt":"2030-01-01T00:00:0${id}.000Z"}\n\n`;

test('events patch the cache; a dropped stream reconnects with Last-Event-ID and the token', async () => {
  localStorage.setItem('AccessToken', 'token-1');
  noteTokenOwner('token-1', 'u1');
  const asked: { auth: string | null; lastId: string | null }[] = [];
  server.use(
    http.get('/api/events', ({ request }) => {
      asked.push({
        auth: request.headers.get('Authorization'),
        lastId: request.headers.get('Last-Event-ID'),
      });
      return asked.length === 1
        ? streamOf([': heartbeat\n\n', stockChanged(1, 7), stockChanged(2, 9)])
        : streamOf([stockChanged(3, 11)]);
    }),
  );
  const client = cachedList();
  stop = startLiveUpdates(client, { userId: 'u1' });
  await expect.poll(() => stockIn(client)).toBe(9);
  await expect.poll(() => stockIn(client), { timeout: 3_000 }).toBe(11);
  expect(asked.slice(0, 2)).toEqual([
    { auth: 'Bearer token-1', lastId: null },
    { auth: 'Bearer token-1', lastId: '2' },
  ]);
});

test('a 401 ends the session and the stream is not opened again', async () => {
  localStorage.setItem('AccessToken', 'expired');
  noteTokenOwner('expired', 'u1');
  let asked = 0;
  let ended = 0;
  setUnauthorizedHandler(() => (ended += 1));
  server.use(
    http.get('/api/events', () => {
      asked += 1;
      return HttpResponse.json({ message: 'Unauthorized' }, { status: 401 });
    }),
  );
  // Fake timers, so that the wait below covers even the longest retry delay in no real time.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  try {
    stop = startLiveUpdates(cachedList(), { userId: 'u1' });
    await expect.poll(() => ended).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(asked).toBe(1);
  } finally {
    vi.useRealTimers();
  }
});

test("a stream is never opened for a user with another user's token", async () => {
  // Another tab logged her out and him in: the token is his, the screens here still hers.
  localStorage.setItem('AccessToken', 'token-2');
  noteTokenOwner('token-2', 'u2');
  let asked = 0;
  server.use(
    http.get('/api/events', () => {
      asked += 1;
      return streamOf([]);
    }),
  );
  stop = startLiveUpdates(cachedList(), { userId: 'u1' });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(asked).toBe(0);
});
