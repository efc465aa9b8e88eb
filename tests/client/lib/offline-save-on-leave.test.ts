import 'fake-indexeddb/auto';
import { createStore, get } from 'idb-keyval';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { noteTokenOwner } from '@/lib/auth/token.js';

const ada = { id: 'u1', name: 'Ada', email: 'ada@example.com' };

/** A page of the app: modules of its own (the query client, its persister), this window's storage. */
async function openPage() {
  vi.resetModules();
  const { queryClient, queryKeys } = await import('@/lib/query/query-client.js');
  const { restoreSavedQueries } = await import('@/lib/query/query-persistence.js');
  await restoreSavedQueries();
  return { queryClient, queryKeys };
}

/**
 * Connections to IndexedDB that a page used before it was left: the browser ends their
 * transactions with the page, so none begun after that point is written.
 */
function endWithThePage() {
  const used = new Set<IDBDatabase>();
  let left = false;
  const transaction = IDBDatabase.prototype.transaction;
  vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (
    this: IDBDatabase,
    ...args: Parameters<IDBDatabase['transaction']>
  ) {
    if (left && used.has(this)) throw new DOMException('The page is gone', 'InvalidStateError');
    if (!left) used.add(this);
    return transaction.apply(this, args);
  });
  return () => (left = true);
}

beforeEach(() => {
  localStorage.setItem('AccessToken', 'token-1');
  // The server said whose it is (GET /auth/user): what is saved is saved as Ada's.
  noteTokenOwner('token-1', ada.id);
});
// The page's end held by the IndexedDB of the test before: a new page's is its own.
afterEach(() => vi.restoreAllMocks());

// The cache is saved a second after it changes, and at once when the page is left: what it holds
// then must be there for the next page, though the page ends before a write of IndexedDB begun
// at that point is done.
it('keeps what changed in the last second when the page is left', async () => {
  const leave = endWithThePage();
  const page = await openPage();
  page.queryClient.setQueryData(page.queryKeys.user, ada);
  // The throttled save of a second later, written.
  await vi.waitFor(
    async () =>
      expect(await get('queries:u1', createStore('stockroom-offline', 'queries'))).toBeTruthy(),
    { timeout: 5_000 },
  );
  page.queryClient.setQueryData(page.queryKeys.user, { ...ada, name: 'Ada L.' });
  window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
  leave();
  const next = await openPage();
  expect(next.queryClient.getQueryData(next.queryKeys.user)).toEqual({ ...ada, name: 'Ada L.' });
});

/** A product as the list gives it, its fields as long as a real catalogue's. */
const listItem = (i: number) => ({
  id: `0193${String(i).padStart(4, '0')}-5a1c-7d2e-8f3a-${String(i).padStart(12, '0')}`,
  name: `Blue enamel mug 350 ml no. ${i}`,
  price: 12.5,
  stock: i % 97,
  description: 'Enamelled steel, dishwasher safe, stacks with the others of the range.',
  image: `https://stockroom.example.com/images/${String(i).padStart(64, '0')}.webp`,
  thumbnail: `https://stockroom.example.com/images/${String(i).padStart(64, '0')}-thumb.webp`,
  sku: `MUG-${String(i).padStart(6, '0')}`,
  barcode: String(4006381333931 + i),
  tags: ['kitchen', 'mugs', 'enamel'],
  reorderPoint: null,
});

const LEFT_MAX = 1_000_000;

// A large cache stringified whole on leaving filled local storage, which the token and the owner
// key share: the copy is bounded, and what it leaves out comes from IndexedDB's last save.
it('keeps a bounded copy on leaving, the newest reads first, the rest from the last save', async () => {
  const leave = endWithThePage();
  const page = await openPage();
  page.queryClient.setQueryData(page.queryKeys.user, ada);
  const listKey = (sort: string) => ['products', 'c1', { q: '', sort, stock: undefined }];
  let weight = 0;
  for (const [n, sort] of ['newest', 'name', 'stock', 'price'].entries()) {
    // 500 products in pages of 60, as the list loads them when scrolled.
    const pages = Array.from({ length: 9 }, (_, p) => ({
      products: Array.from({ length: 60 }, (_, k) => listItem(n * 1000 + p * 60 + k)),
      nextCursor: 'eyJ2IjoxfQ',
    }));
    const data = { pages, pageParams: pages.map((_, p) => (p === 0 ? undefined : `c${p}`)) };
    page.queryClient.setQueryData(listKey(sort), data);
    weight += JSON.stringify(data).length;
  }
  expect(weight).toBeGreaterThan(LEFT_MAX);
  await vi.waitFor(
    async () => {
      const saved = await get<{ clientState: { queries: unknown[] } }>(
        'queries:u1',
        createStore('stockroom-offline', 'queries'),
      );
      expect(saved?.clientState.queries.length).toBeGreaterThanOrEqual(5);
    },
    { timeout: 10_000 },
  );
  // Read after that save, and left before the next one.
  const opened = { product: { ...listItem(99_999), name: 'Opened last' } };
  page.queryClient.setQueryData(['editProduct', 'c1', 'opened'], opened);
  window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
  leave();
  expect(localStorage.getItem('OfflineCacheOnLeave')!.length).toBeLessThanOrEqual(LEFT_MAX);

  const next = await openPage();
  expect(next.queryClient.getQueryData(['editProduct', 'c1', 'opened'])).toEqual(opened);
  expect(next.queryClient.getQueryData(next.queryKeys.user)).toEqual(ada);
  for (const sort of ['newest', 'name', 'stock', 'price']) {
    const list = next.queryClient.getQueryData<{ pages: unknown[] }>(listKey(sort));
    expect(list?.pages).toHaveLength(9);
  }
}, 30_000);
