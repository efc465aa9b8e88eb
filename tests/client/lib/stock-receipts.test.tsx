import 'fake-indexeddb/auto';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { PurchaseOrder } from '@shared/schemas/purchasing/purchase-orders.js';
import { expectedLines } from '@/lib/purchasing/expected.js';
import { queryClient } from '@/lib/query/query-client.js';
import { pendingSnapshot } from '@/lib/stock-change/index.js';
import { server } from '../support/server.js';
import { signInAs } from '../support/session.js';

/**
 * Receipts against a purchase order through the one stock-change module: sent now, or kept in the
 * browser's queue (fake-indexeddb) and replayed once, with their key.
 */
const USER = { id: 'user-1', name: 'Ada', email: 'ada@example.com' };
const MAIN = '22222222-2222-4222-8222-222222222222';
let online = true;

const ORDER: PurchaseOrder = {
  id: 'po1',
  number: 'PO-0001',
  supplierId: 's1',
  supplierName: 'Acme Supply',
  status: 'ordered',
  expectedAt: null,
  notes: null,
  sentAt: null,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
  totalQuantity: 12,
  totalCost: 30,
  lines: [
    {
      productId: 'p1',
      name: 'Blue mug',
      sku: null,
      supplierSku: null,
      quantity: 12,
      unitCost: 2.5,
      received: 0,
    },
  ],
};

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

test('a receipt made offline counts as received, waits, then goes once with its key', async () => {
  const { receiveStock } = await import('@/lib/stock-change/receipts/receive.js');
  const { sendQueuedChanges } = await import('@/lib/stock-change/offline/queue.js');
  const applied: { key: string | null; body: unknown }[] = [];
  const seen = new Set<string>();
  server.use(
    http.post('/api/purchase-orders/po1/receipts', async ({ request }) => {
      const key = request.headers.get('Idempotency-Key') ?? '';
      const body = await request.json();
      if (!seen.has(key)) applied.push({ key, body });
      seen.add(key);
      return HttpResponse.json({
        message: 'Received 5 units',
        purchaseOrder: { ...ORDER, status: 'partially_received' },
        overReceived: [],
      });
    }),
  );
  online = false;
  const result = await receiveStock(queryClient, {
    catalogue: undefined,
    po: ORDER,
    location: { id: MAIN, path: 'Main' },
    lines: [{ productId: 'p1', productName: 'Blue mug', quantity: 5 }],
    source: 'scan',
  });
  expect(result).toEqual({ queued: true });
  const [waiting] = pendingSnapshot().changes;
  expect(waiting?.kind).toBe('receipt');
  expect(expectedLines(ORDER, pendingSnapshot().changes)).toMatchObject([
    { productId: 'p1', ordered: 12, received: 5, waiting: 5, expected: 7 },
  ]);
  expect(applied).toEqual([]);

  online = true;
  await sendQueuedChanges();
  await sendQueuedChanges();
  expect(applied).toEqual([
    { key: waiting?.key, body: { locationId: MAIN, lines: [{ productId: 'p1', quantity: 5 }] } },
  ]);
  expect(pendingSnapshot().changes).toEqual([]);
});

test('a receipt whose answer was lost is kept with its key and counted once', async () => {
  const { receiveStock } = await import('@/lib/stock-change/receipts/receive.js');
  const { sendQueuedChanges } = await import('@/lib/stock-change/offline/queue.js');
  const keys: (string | null)[] = [];
  let drop = true;
  server.use(
    http.post('/api/purchase-orders/po1/receipts', ({ request }) => {
      keys.push(request.headers.get('Idempotency-Key'));
      if (drop) return HttpResponse.error();
      return HttpResponse.json({
        message: 'Received 1 unit',
        purchaseOrder: ORDER,
        overReceived: [],
      });
    }),
  );
  const result = await receiveStock(queryClient, {
    catalogue: undefined,
    po: ORDER,
    location: { id: MAIN, path: 'Main' },
    lines: [{ productId: 'p1', productName: 'Blue mug', quantity: 1 }],
    source: 'form',
  });
  expect(result).toEqual({ queued: true });
  drop = false;
  await sendQueuedChanges();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  expect(pendingSnapshot().changes).toEqual([]);
});
