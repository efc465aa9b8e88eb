import { lazy, type ComponentType } from 'react';
import { cachedImport } from '@/lib/lazy-import.js';

/**
 * A signed-in form screen whose code loads when it is first shown, apart from its route module.
 * React Router reloads the page when a route module cannot be loaded, which offline ends on the
 * browser's own error page; so the route modules are small and fetched ahead
 * (app/routes/main-layout.tsx), and a screen that then cannot load is asked for twice and
 * explained by the app's error boundary ("This screen could not be loaded", with Reload).
 */
export function lazyScreen<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
) {
  const loadOnce = cachedImport(load);
  return lazy(async () => ({ default: (await loadOnce())[name] }));
}
