import { useLayoutEffect } from 'react';

/**
 * The browser tab's title for a screen. Set on the document rather than rendered as a <title>
 * element: React 19 hoisted that into <head>, Preact (which runs the app, ADR 010) leaves it where
 * it is rendered. Leaving the screen gives the page its own title back, unless another screen
 * has set its title since.
 */
export function DocumentTitle({ children }: { children: string }) {
  useLayoutEffect(() => {
    const previous = document.title;
    const title = `${children} · Stockroom`;
    document.title = title;
    return () => {
      if (document.title === title) document.title = previous;
    };
  }, [children]);
  return null;
}
