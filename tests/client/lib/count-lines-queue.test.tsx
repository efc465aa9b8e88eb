import 'fake-indexeddb/auto';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { queryClient } from '@/lib/query/query-client.js';
import { pendingSnapshot } from '@/lib/stock-change/index.js';
import { server } from '../support/server.js';
import { signInAs } from '../support/session.js';

/**
 * A count's lines through the stock-change module: counted offline, a line waits in the
 * browser's queue (fake-indexeddb) and is sent once with its key; it is no waiting stock change
 * of its product.
 */
const USER = { id: 'user-1', name: 'Ada', email: 'ada@example.com' };
const COUNT = '00000000-0000-4000-8000-0000000000c1';
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

test('a line counted offline waits, then is sent once with its key', async () => {
  const { countLine } = await import('@/lib/stock-change/count-line.js');
  const { sendQueuedChanges } = await import('@/lib/stock-change/offline/queue.js');
  const applied: { key: string | null; body: unknown }[] = [];
  const seen = new Set<string | null>();
  server.use(
    http.post(`/api/counts/${COUNT}/lines`, async ({ request }) => {
      const key = request.headers.get('Idempotency-Key');
      const body = await request.json();
      if (!seen.has(key)) applied.push({ key, body });
      seen.add(key);
      return HttpResponse.json({
        message: 'Counted',
        line: {
          productId: 'p1',
          name: 'Blue mug',
          sku: null,
          barcode: null,
          locationId: MAIN,
          counted: 3,
          countedBy: null,
          countedAt: '2026-12-01T09:00:00.000Z',
        },
      });
    }),
  );
  online = false;
  const result = await countLine(queryClient, {
    catalogue: undefined,
    countId: COUNT,
    product: { id: 'p1', name: 'Blue mug' },
    location: { id: MAIN, path: 'Main' },
    counted: 3,
    add: true,
    source: 'scan',
  });
  expect(result).toEqual({ queued: true });
  const [waiting] = pendingSnapshot().changes;
  expect(waiting?.kind).toBe('countLine');
  // Not a stock change: no product's stock shows it as waiting.
  expect(pendingSnapshot().changes.filter((change) => change.productId === 'p1')).toEqual([]);
  expect(applied).toEqual([]);

  online = true;
  await sendQueuedChanges();
  await sendQueuedChanges();
  expect(applied).toEqual([
    {
      key: waiting?.key,
      body: { productId: 'p1', locationId: MAIN, counted: 3, add: true },
    },
  ]);
  expect(pendingSnapshot().changes).toEqual([]);
});
