import 'fake-indexeddb/auto';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { MainLayout } from '@/app/layouts/signed-in/MainLayout.js';
import { clientLoader, clientMiddleware, HydrateFallback } from '@/app/routes/main-layout.js';
import { queryClient, queryKeys } from '@/lib/query/query-client.js';
import { LocationProbe, renderRoute } from '../support/render.js';
import { apiError, requests, sent, server } from '../support/server.js';

const setup = () => renderRoute(<MainLayout />, { path: '/' });

/**
 * The signed-in layout as its route module makes it: its loader decides before anything renders,
 * on the app's own query client.
 */
function renderLayout(children: RouteObject[], url = '/') {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        // The framework's types of the module's exports are its own: a data route takes them as is.
        middleware: clientMiddleware as RouteObject['middleware'],
        loader: clientLoader as RouteObject['loader'],
        HydrateFallback,
        Component: MainLayout,
        children,
      },
      { path: '*', element: <LocationProbe /> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

afterEach(() => {
  act(() => queryClient.clear());
});

describe('MainLayout', () => {
  it('goes to /auth/login when there is no session', async () => {
    renderLayout([{ index: true, element: <p>The list</p> }]);
    expect(await screen.findByTestId('location')).toHaveTextContent('/auth/login');
    expect(screen.queryByText('The list')).toBeNull();
    expect(await sent()).toEqual([]);
  });

  it('goes to /auth/login when the current user cannot be loaded, without retrying', async () => {
    localStorage.setItem('AccessToken', 'revoked');
    server.use(
      http.get('/api/auth/user', () =>
        apiError(401, { message: 'You need to log in to continue' }),
      ),
    );
    const router = renderLayout([{ index: true, element: <p>The list</p> }], '/?q=lamp');
    expect(await screen.findByTestId('location')).toHaveTextContent(
      '/auth/login?next=%2F%3Fq%3Dlamp',
    );
    // Decided before the screen rendered, in place of the address asked for (replace).
    expect(screen.queryByText('The list')).toBeNull();
    expect(router.state.historyAction).toBe('REPLACE');
    expect(await requests()).toMatchObject([
      { method: 'GET', path: '/auth/user', authorization: 'Bearer revoked' },
    ]);
  });

  it('keeps the way to a screen still loading when the session ends on the way', async () => {
    localStorage.setItem('AccessToken', 'token-1');
    server.use(
      http.get('/api/auth/user', () =>
        HttpResponse.json({ user: { id: 'u1', name: 'Ada', email: 'ada@example.com' } }),
      ),
      http.get('/api/catalogues', () => HttpResponse.json({ catalogues: [] })),
      http.get('/api/invitations', () => HttpResponse.json({ invitations: [] })),
    );
    const router = renderLayout([
      { index: true, element: <p>The list</p> },
      // A screen whose loader has not finished: the user is still on the list.
      { path: 'details/product/:id', loader: () => new Promise(() => undefined), element: null },
    ]);
    expect(await screen.findByText('The list')).toBeVisible();

    void router.navigate('/details/product/p1');
    await waitFor(() => expect(router.state.navigation.state).toBe('loading'));
    // The session ends as lib/session/session.ts ends it: no token, and the user asked for again.
    localStorage.removeItem('AccessToken');
    await act(() => queryClient.resetQueries({ queryKey: queryKeys.user }));

    expect(await screen.findByTestId('location')).toHaveTextContent(
      '/auth/login?next=%2Fdetails%2Fproduct%2Fp1',
    );
  });

  it(
    'greets the user, with a keyboard-usable menu, and logs out',
    { timeout: 20_000 },
    async () => {
      localStorage.setItem('AccessToken', 'token-1');
      server.use(
        http.get('/api/auth/user', () =>
          HttpResponse.json({ user: { id: 'u1', name: 'Ada', email: 'ada@example.com' } }),
        ),
        http.post('/api/auth/logout', () => HttpResponse.json({ message: 'Logged out' })),
        http.get('/api/catalogues', () =>
          HttpResponse.json({
            catalogues: [
              {
                id: 'u1',
                name: 'Ada stock',
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
      );
      const { user } = setup();
      expect(screen.getByRole('status')).toBeInTheDocument();
      const button = await screen.findByRole('button', { name: /Hello Ada/ });
      expect(screen.getByRole('banner')).toBeInTheDocument();
      // The catalogue switcher names the personal catalogue.
      expect(
        await screen.findByRole('button', { name: 'Catalogue: Ada stock' }),
      ).toBeInTheDocument();
      expect(screen.getByRole('main')).toBeInTheDocument();
      expect(screen.getByRole('contentinfo')).toHaveTextContent(
        `© ${new Date().getFullYear()} Stockroom`,
      );
      expect(screen.getByRole('contentinfo')).toHaveTextContent('Created by');
      expect(screen.getByRole('link', { name: 'Stockroom' })).toHaveAttribute('href', '/');

      button.focus();
      await user.keyboard('{Enter}');
      const profile = await screen.findByRole('menuitem', { name: 'My Profile' });
      expect(profile).toHaveAttribute('href', '/profile');
      expect(profile).toHaveFocus();
      expect(button).toHaveAttribute('aria-expanded', 'true');
      // Escape closes the menu back on its button; Arrow Down opens it again.
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('menu')).not.toBeInTheDocument();
      expect(button).toHaveFocus();
      await user.keyboard('{ArrowDown}');
      expect(await screen.findByRole('menuitem', { name: 'My Profile' })).toHaveFocus();
      await user.keyboard('{ArrowDown}');
      const activity = screen.getByRole('menuitem', { name: 'Activity' });
      expect(activity).toHaveAttribute('href', '/activity');
      await waitFor(() => expect(activity).toHaveFocus());
      await user.keyboard('{ArrowDown}');
      const reports = screen.getByRole('menuitem', { name: 'Reports' });
      expect(reports).toHaveAttribute('href', '/reports');
      await waitFor(() => expect(reports).toHaveFocus());
      await user.keyboard('{ArrowDown}');
      const locations = screen.getByRole('menuitem', { name: 'Locations' });
      expect(locations).toHaveAttribute('href', '/locations');
      await waitFor(() => expect(locations).toHaveFocus());
      await user.keyboard('{ArrowDown}');
      const counts = screen.getByRole('menuitem', { name: 'Counts' });
      expect(counts).toHaveAttribute('href', '/counts');
      await waitFor(() => expect(counts).toHaveFocus());
      await user.keyboard('{ArrowDown}');
      const suppliers = screen.getByRole('menuitem', { name: 'Suppliers' });
      expect(suppliers).toHaveAttribute('href', '/suppliers');
      await waitFor(() => expect(suppliers).toHaveFocus());
      await user.keyboard('{ArrowDown}');
      const orders = screen.getByRole('menuitem', { name: 'Purchase orders' });
      expect(orders).toHaveAttribute('href', '/purchase-orders');
      await waitFor(() => expect(orders).toHaveFocus());
      await user.keyboard('{ArrowDown}');
      const logout = screen.getByRole('menuitem', { name: 'Logout' });
      await waitFor(() => expect(logout).toHaveFocus());
      await user.keyboard('{Enter}');

      expect(await screen.findByTestId('location')).toHaveTextContent('/auth/login');
      expect(await requests()).toContainEqual(
        expect.objectContaining({
          method: 'POST',
          path: '/auth/logout',
          authorization: 'Bearer token-1',
        }),
      );
      expect(localStorage.getItem('AccessToken')).toBeNull();
    },
  );
});
