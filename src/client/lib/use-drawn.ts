import { useDeferredValue, useState } from 'react';

/**
 * Whether a screen may draw its data, given whether the data is `ready`. Not in the render where
 * the data first arrives, which stays as it was (a spinner, a skeleton), but in a transition just
 * after it, which React renders in slices: a large first draw is then no long task that the page
 * cannot answer during. Once drawn, the data is drawn at once whenever it is ready.
 */
export function useDrawn(ready: boolean): boolean {
  const [wasReady, setWasReady] = useState(ready);
  if (ready && !wasReady) setWasReady(true);
  return useDeferredValue(wasReady || ready) && ready;
}
