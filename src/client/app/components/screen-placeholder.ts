import type { ReactNode } from 'react';
import { useMatches } from 'react-router';

/** What a route module's `handle` may give the signed-in layout. */
export interface ScreenHandle {
  /**
   * The screen as it looks before the user is known: its title and the shape of what will fill
   * it. The build writes it into the screen's page, so that the page does not start blank.
   */
  placeholder?: ReactNode;
}

/** The deepest matched route's placeholder, if it has one. */
export function useScreenPlaceholder(): ReactNode {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]!.handle as ScreenHandle | undefined;
    if (handle?.placeholder) return handle.placeholder;
  }
  return undefined;
}
