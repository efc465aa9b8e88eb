import 'fake-indexeddb/auto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient, queryKeys } from '@/lib/query/query-client.js';
import { renderApp } from '../support/app-router.js';
import { apiError, requests, server } from '../support/server.js';
import { product } from '../features/products/fixtures.js';

const { active: _a, createdAt: _c, updatedAt: _u, ...listed } = product();

beforeEach(() => {
  // A new screen starts at the top (app/components/ScreenChange.tsx); jsdom lays nothing out.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  localStorage.setItem('AccessToken', 'token-1');
  server.use(
    http.get('/api/auth/user', () =>
      HttpResponse.json({ user: { id: 'u1', name: 'Ada', email: 'ada@example.com' } }),
    ),
    http.get('/api/products', () => HttpResponse.json({ products: [listed], nextCursor: null })),
    http.get('/api/catalogues', () =>
      HttpResponse.json({
        catalogues: [
          {
            id: 'u1',
            name: "Ada's catalogue",
            personal: true,
            role: 'owner',
            members: 1,
            createdAt: '2026-01-01T00:00:00.000Z',
            reorderPoint: 10,
          },
        ],
      }),
    ),
    http.get('/api/invitations', () => HttpResponse.json({ invitations: [] })),
    http.get('/api/products/summary', () =>
      HttpResponse.json({
        count: 1,
        units: listed.stock,
        value: listed.price * listed.stock,
        toReorder: 0,
      }),
    ),
  );
});

afterEach(() => {
  // The app's own query client outlives a render: the next test starts from nothing cached.
  act(() => queryClient.clear());
});

describe('a session that ends on the server', () => {
  it(
    'sends the user to the login screen, with the way back, at the next request that gets a 401',
    { timeout: 15_000 },
    async () => {
      const user = userEvent.setup();
      const { router } = renderApp('/');
      const list = await screen.findByRole('list', {}, { timeout: 5000 });
      expect(within(list).getByRole('heading', { name: 'Desk Lamp' })).toBeVisible();
      // The list's other reads settled: the 401 below must meet the product's own request, not
      // one of the list's that was still on its way.
      await waitFor(() => expect(queryClient.isFetching()).toBe(0), { timeout: 5000 });

      // Revoked elsewhere (a logout on another device, a password change): every request is a 401.
      server.use(
        http.all('/api/*', () => apiError(401, { message: 'You need to log in to continue' })),
      );
      await user.click(within(list).getByRole('link', { name: 'Desk Lamp' }));

      expect(
        await screen.findByRole('heading', { name: 'Welcome Back!' }, { timeout: 5000 }),
      ).toBeVisible();
      expect(router.state.location.pathname).toBe('/auth/login');
      expect(new URLSearchParams(router.state.location.search).get('next')).toBe(
        '/details/product/p1',
      );
      expect(localStorage.getItem('AccessToken')).toBeNull();
      // The refused request carried the token; the user's data sets went with it.
      expect(await requests()).toContainEqual(
        expect.objectContaining({ path: '/products/p1', authorization: 'Bearer token-1' }),
      );
      expect(
        queryClient.getQueryData(queryKeys.productList(undefined, { q: '', sort: 'newest' })),
      ).toBeUndefined();
    },
  );
});
