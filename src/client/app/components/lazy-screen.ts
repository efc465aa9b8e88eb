import { createElement, lazy, type Attributes, type ComponentType } from 'react';
import { cachedImport } from '@/lib/lazy-import.js';

/** How to give each screen that could not be loaded a fresh start. */
const failedScreens = new Set<() => void>();

/**
 * The screens that could not be loaded ask for their code again when next shown. React keeps a
 * lazy component's failure for good, so each is replaced by a fresh one.
 */
export function retryFailedScreens() {
  for (const restart of failedScreens) restart();
  failedScreens.clear();
}

/**
 * A signed-in form screen whose code loads when it is first shown, apart from its route module.
 * React Router reloads the page when a route module cannot be loaded, which offline ends on the
 * browser's own error page; so the route modules are small and fetched ahead
 * (app/routes/main-layout.tsx), and a screen that then cannot load is asked for twice and
 * explained by the app's error boundary ("This screen could not be loaded"), which tries it again
 * once the connection is back (retryFailedScreens). A part of a screen loaded after it is drawn
 * is one too, in a LaterPart, which leaves it out instead.
 */
export function lazyScreen<K extends string, P extends object = object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
) {
  const loadOnce = cachedImport(load);
  const fresh = () =>
    lazy<ComponentType<P>>(async () => {
      try {
        return { default: (await loadOnce())[name] };
      } catch (error) {
        failedScreens.add(() => {
          screen = fresh();
        });
        throw error;
      }
    });
  let screen = fresh();
  return function LazyScreen(props: P) {
    return createElement(screen, props as Attributes & P);
  };
}
