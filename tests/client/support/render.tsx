import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { Toaster } from '@/components/Toaster.js';
import { CurrentCatalogueProvider } from '@/lib/catalogues/current-catalogue.js';

/** Shows where the app navigated to: any path the test did not route lands here. */
export function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname + location.search}</p>;
}

interface RenderOptions {
  /** The route pattern the element is mounted at. */
  path?: string;
  /** The URL the test starts at (defaults to `path`). */
  url?: string;
  queryClient?: QueryClient;
  userOptions?: Parameters<typeof userEvent.setup>[0];
}

export const testQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });

export function renderRoute(element: ReactElement, options: RenderOptions = {}) {
  const { path = '/', url = path } = options;
  const queryClient = options.queryClient ?? testQueryClient();
  const user = userEvent.setup(options.userOptions);
  // A data router, as the app runs in: screens may block a navigation (useBlocker).
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <Outlet />
            <Toaster />
          </>
        ),
        children: [
          { path, element: <CurrentCatalogueProvider>{element}</CurrentCatalogueProvider> },
          { path: '*', element: <LocationProbe /> },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { user, queryClient, ...utils };
}
