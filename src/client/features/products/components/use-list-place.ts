import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { restoresScroll } from '@/lib/scroll-state.js';
import { rememberListPlace } from './common/list-place.js';

/**
 * Remembers where the user is on the list (search, sort, scroll) for 'Back to Products', and when
 * such a link brought the user here, scrolls back to where they were once the list has rendered.
 */
export function useListPlace(ready: boolean) {
  const location = useLocation();

  useEffect(() => {
    const save = () => {
      // Once the user has moved on, the list may stay mounted a moment (the next screen's chunk
      // is on its way) while the page shrinks under it: that scroll is not where they were.
      if (window.location.pathname !== location.pathname) return;
      rememberListPlace({ search: location.search, scrollY: window.scrollY });
    };
    // Reading the scroll needs the page laid out: in the next frame, where the browser lays it
    // out anyway, rather than in the task that drew the list.
    let frame = requestAnimationFrame(save);
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(save);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, [location.pathname, location.search]);

  const restoredFor = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || restoredFor.current === location.key) return;
    restoredFor.current = location.key;
    if (!restoresScroll(location.state)) return;
    const { restoreScrollY } = location.state;
    // After every effect of this render (a layout that scrolls to the top on navigation runs its
    // effects after ours, being our parent), so that the restored scroll is the last word.
    const frame = requestAnimationFrame(() => window.scrollTo(0, restoreScrollY));
    return () => cancelAnimationFrame(frame);
  }, [ready, location.key, location.state]);
}
