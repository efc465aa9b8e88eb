import 'fake-indexeddb/auto';
import { clear, createStore, get, keys } from 'idb-keyval';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { signInAs, tokenFor } from '../support/session.js';

/**
 * The saved query cache (lib/query/query-persistence.ts) between users of one browser: a tab still
 * showing the first user after another tab logged out and someone else logged in must not save
 * her data again, and what is saved is restored only for the user whose token the browser holds.
 */
const ADA = { id: 'u-ada', name: 'Ada', email: 'ada@example.com' };
const BERT = { id: 'u-bert', name: 'Bert', email: 'bert@example.com' };
const LIST = ['products', 'personal', { q: '', sort: 'newest' }];
const adaList = (stock: number) => ({
  pages: [{ products: [{ id: 'p-ada', name: "Ada's secret lamp", stock }], nextCursor: null }],
  pageParams: [null],
});

const savedStore = () => createStore('stockroom-offline', 'queries');

/** A page of the app: modules of its own (the query client, its persister), this window's storage. */
async function openPage() {
  vi.resetModules();
  const { queryClient } = await import('@/lib/query/query-client.js');
  const { restoreSavedQueries } = await import('@/lib/query/query-persistence.js');
  await restoreSavedQueries();
  return queryClient;
}

/** What another tab's logout, then a login as `token`, leave in the browser's storage. */
async function otherTabLogsInAs(token: string) {
  localStorage.removeItem('OfflineCacheOwner');
  localStorage.removeItem('OfflineCacheOnLeave');
  await clear(savedStore());
  localStorage.setItem('AccessToken', token);
}

beforeEach(async () => {
  await clear(savedStore());
});
afterEach(() => vi.restoreAllMocks());

it('a tab still showing her after his login saves none of her data, and a new page shows none', async () => {
  const page = await openPage();
  await signInAs(ADA, 'token-ada', page);
  page.setQueryData(LIST, adaList(3));
  // Saved for her while the token is hers.
  await vi.waitFor(async () => expect(await get('queries:u-ada', savedStore())).toBeTruthy(), {
    timeout: 5_000,
  });

  tokenFor(BERT, 'token-bert');
  await otherTabLogsInAs('token-bert');
  // Her tab goes on changing her data (a live event, a read that was on its way), and is hidden.
  page.setQueryData(LIST, adaList(4));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));

  expect(await keys(savedStore())).toEqual([]);
  expect(localStorage.getItem('OfflineCacheOwner')).not.toBe(ADA.id);
  expect(localStorage.getItem('OfflineCacheOnLeave') ?? '').not.toContain('p-ada');

  // His next page, offline, before anything is read: nothing of hers.
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  const next = await openPage();
  expect(
    JSON.stringify(
      next
        .getQueryCache()
        .getAll()
        .map((query) => query.state.data),
    ),
  ).not.toContain('p-ada');
});

it('a save is restored only under the token of the user inside it', async () => {
  const page = await openPage();
  await signInAs(ADA, 'token-ada', page);
  page.setQueryData(LIST, adaList(3));
  await vi.waitFor(async () => expect(await get('queries:u-ada', savedStore())).toBeTruthy(), {
    timeout: 5_000,
  });
  // Her save stays (a stale tab wrote it back, an older version's), the token is now his.
  tokenFor(BERT, 'token-bert');
  localStorage.setItem('AccessToken', 'token-bert');

  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  const next = await openPage();
  expect(next.getQueryData(['user'])).toBeUndefined();
  expect(next.getQueryData(LIST)).toBeUndefined();
});

it('a session begun before owners were noted still opens offline from its save', async () => {
  // Saved by the version before: the token, the save and its owner, nothing said of the token.
  localStorage.setItem('AccessToken', 'token-ada');
  const page = await openPage();
  page.setQueryData(['user'], ADA);
  page.setQueryData(LIST, adaList(3));
  await vi.waitFor(async () => expect(await get('queries:u-ada', savedStore())).toBeTruthy(), {
    timeout: 5_000,
  });
  expect(localStorage.getItem('AccessTokenOwner')).toBeNull();

  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  const next = await openPage();
  expect(next.getQueryData(['user'])).toEqual(ADA);
  expect(next.getQueryData(LIST)).toEqual(adaList(3));
});
