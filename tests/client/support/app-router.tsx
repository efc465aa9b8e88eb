import type { RouteConfigEntry } from '@react-router/dev/routes';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import routes from '@/app/routes.js';
import App, { ErrorBoundary } from '@/app/root.js';

type RouteModule = {
  default: RouteObject['Component'];
  clientLoader?: RouteObject['loader'];
  clientMiddleware?: RouteObject['middleware'];
  HydrateFallback?: RouteObject['HydrateFallback'];
  ErrorBoundary?: RouteObject['ErrorBoundary'];
  shouldRevalidate?: RouteObject['shouldRevalidate'];
};

// Every route module at once: the screens themselves still load on demand (lazyScreen).
const modules = import.meta.glob<RouteModule>('/src/client/app/routes/*.tsx', { eager: true });

/** A route of app/routes.ts as the framework makes it from its module. */
function routeObject(entry: RouteConfigEntry): RouteObject {
  const module = modules[`/src/client/app/${entry.file}`];
  if (!module) throw new Error(`${entry.file} is not a route module`);
  const parts = {
    id: entry.id ?? entry.file,
    Component: module.default,
    loader: module.clientLoader,
    middleware: module.clientMiddleware,
    HydrateFallback: module.HydrateFallback,
    ErrorBoundary: module.ErrorBoundary,
    shouldRevalidate: module.shouldRevalidate,
  };
  const children = entry.children?.map(routeObject);
  return entry.index ? { index: true, ...parts } : { path: entry.path, ...parts, children };
}

/** The whole app at `url`, on the route table the build uses, in memory instead of the browser. */
export function renderApp(url: string) {
  const router = createMemoryRouter(
    [{ id: 'root', Component: App, ErrorBoundary, children: routes.map(routeObject) }],
    { initialEntries: [url] },
  );
  return { router, ...render(<RouterProvider router={router} />) };
}
