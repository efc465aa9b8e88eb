import 'fake-indexeddb/auto';
import { createStore, get } from 'idb-keyval';
import { beforeEach, expect, it, vi } from 'vitest';

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
});

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
