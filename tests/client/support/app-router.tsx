import type { RouteConfigEntry } from '@react-router/dev/routes';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import routes from '@/app/routes.js';
import App, { ErrorBoundary } from '@/app/root.js';

type RouteModule = {
  default: RouteObject['Component'];
  clientLoader?: RouteObject['loader'];
  HydrateFallback?: RouteObject['HydrateFallback'];
};

const modules = import.meta.glob<RouteModule>('/src/client/app/routes/*.tsx');

/** A route of app/routes.ts as the framework makes it: its module loaded when first matched. */
function routeObject(entry: RouteConfigEntry): RouteObject {
  const load = modules[`/src/client/app/${entry.file}`];
  if (!load) throw new Error(`${entry.file} is not a route module`);
  const lazy = async () => {
    const module = await load();
    return {
      Component: module.default,
      loader: module.clientLoader,
      HydrateFallback: module.HydrateFallback,
    };
  };
  const children = entry.children?.map(routeObject);
  return entry.index
    ? { index: true, id: entry.id ?? entry.file, lazy }
    : { path: entry.path, id: entry.id ?? entry.file, lazy, children };
}

/** The whole app at `url`, on the route table the build uses, in memory instead of the browser. */
export function renderApp(url: string) {
  const router = createMemoryRouter(
    [{ id: 'root', Component: App, ErrorBoundary, children: routes.map(routeObject) }],
    { initialEntries: [url] },
  );
  return { router, ...render(<RouterProvider router={router} />) };
}
