import 'fake-indexeddb/auto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { User } from '@shared/schemas/auth.js';
import { queryClient } from '@/lib/query/query-client.js';
import { renderApp } from '../support/app-router.js';
import { server } from '../support/server.js';
import { tokenFor } from '../support/session.js';
import { listed } from '../features/products/fixtures.js';

/**
 * Two tabs of one browser share its local storage: a logout, or a login as someone else, in the
 * other tab changes the token under this one, which learns of it by the `storage` event.
 */
const ADA: User = { id: 'u-ada', name: 'Ada', email: 'ada@example.com' };
const BERT: User = { id: 'u-bert', name: 'Bert', email: 'bert@example.com' };
const PRODUCTS = new Map([
  ['token-ada', [listed({ id: 'p-ada', name: "Ada's secret lamp" })]],
  ['token-bert', [listed({ id: 'p-bert', name: "Bert's mug" })]],
]);
const OWNERS = new Map([
  ['token-ada', ADA],
  ['token-bert', BERT],
]);

const tokenOf = (request: Request) =>
  request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';

beforeEach(() => {
  // A new screen starts at the top (app/components/ScreenChange.tsx); jsdom lays nothing out.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  tokenFor(ADA, 'token-ada');
  tokenFor(BERT, 'token-bert');
  // Each answer is the token's user's, as the server's are.
  server.use(
    http.get('/api/products', ({ request }) =>
      HttpResponse.json({ products: PRODUCTS.get(tokenOf(request)) ?? [], nextCursor: null }),
    ),
    http.get('/api/catalogues', ({ request }) => {
      const user = OWNERS.get(tokenOf(request));
      return HttpResponse.json({
        catalogues: user
          ? [
              {
                id: user.id,
                name: `${user.name}'s catalogue`,
                personal: true,
                role: 'owner',
                members: 1,
                createdAt: '2026-01-01T00:00:00.000Z',
                reorderPoint: 10,
              },
            ]
          : [],
      });
    }),
    http.get('/api/invitations', () => HttpResponse.json({ invitations: [] })),
    // The live stream, not followed here.
    http.get('/api/events', () => new HttpResponse(null, { status: 503 })),
    http.get('/api/products/summary', () =>
      HttpResponse.json({ count: 1, units: 24, value: 100, toReorder: 0 }),
    ),
  );
  localStorage.setItem('AccessToken', 'token-ada');
});

afterEach(() => {
  act(() => queryClient.clear());
});

/** What another tab does to the token, as this tab sees it: the storage changes, then the event. */
function otherTabSetsToken(token: string | null) {
  const oldValue = localStorage.getItem('AccessToken');
  if (token === null) localStorage.removeItem('AccessToken');
  else localStorage.setItem('AccessToken', token);
  act(() => {
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: 'AccessToken',
        oldValue,
        newValue: token,
        storageArea: localStorage,
      }),
    );
  });
}

async function adaSignedIn() {
  const view = renderApp('/');
  expect(await screen.findByRole('button', { name: /Hello Ada/ })).toBeVisible();
  const list = await screen.findByRole('list', {}, { timeout: 5_000 });
  expect(within(list).getByRole('heading', { name: "Ada's secret lamp" })).toBeVisible();
  return view;
}

it(
  'a login as someone else in another tab: this tab drops her data and shows his',
  { timeout: 20_000 },
  async () => {
    await adaSignedIn();

    otherTabSetsToken('token-bert');

    expect(await screen.findByRole('heading', { name: "Bert's mug" })).toBeVisible();
    expect(screen.getByRole('button', { name: /Hello Bert/ })).toBeVisible();
    expect(screen.queryByRole('button', { name: /Hello Ada/ })).toBeNull();
    expect(screen.queryByText("Ada's secret lamp")).toBeNull();
    // Nothing of hers is left in memory, to be shown or saved for offline under his name.
    expect(
      JSON.stringify(
        queryClient
          .getQueryCache()
          .getAll()
          .map((query) => query.state.data),
      ),
    ).not.toContain('p-ada');
  },
);

it(
  'a logout in another tab sends this one to the login screen, her data gone',
  { timeout: 20_000 },
  async () => {
    const { router } = await adaSignedIn();

    otherTabSetsToken(null);

    expect(await screen.findByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/auth/login');
    await waitFor(() =>
      expect(
        JSON.stringify(
          queryClient
            .getQueryCache()
            .getAll()
            .map((query) => query.state.data),
        ),
      ).not.toContain('p-ada'),
    );
  },
);
