import { useEffect, useRef, useState } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';
import { restoresScroll } from '@/lib/scroll-state.js';

/** How long a new screen may take to show its heading (a chunk, then its data) before we give up. */
const HEADING_WAIT_MS = 10_000;

/** Someone is typing there (a screen that focuses its own field, like the code boxes): keep it. */
const isFormControl = (element: Element | null) =>
  element instanceof HTMLInputElement ||
  element instanceof HTMLTextAreaElement ||
  element instanceof HTMLSelectElement;

/** Focuses the heading; false when a field of the new screen already has the focus. */
function focusHeading(heading: HTMLElement): boolean {
  if (isFormControl(document.activeElement)) return false;
  // Focusable by script only: not a tab stop. The app's focus style (index.css) marks it for
  // keyboard users; a screen reader reads the heading, which names the new screen.
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
  return true;
}

/**
 * What a move to another screen does after the first load (a new path, not a change of search
 * or sort): the page starts at the top unless it is a Back/Forward pop or the screen restores its
 * own position (the browser keeps the old scroll position otherwise, 351 px down on the edit
 * screen of a phone) and the keyboard focus moves to the new screen's h1, so a
 * screen reader announces where the user arrived. The heading may come later than the route (a
 * lazily loaded screen, a spinner while its data loads): it is awaited. When the screen keeps the
 * focus in a field of its own (the code boxes) or has no heading, its title is announced instead.
 */
export function ScreenChange() {
  const { pathname, state } = useLocation();
  const navigationType = useNavigationType();
  const shown = useRef(pathname);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    // Back and Forward (a pop) return to where the user was: the browser restores that position,
    // as a screen reached with a position to restore (lib/scroll-state.ts) does itself.
    if (navigationType !== NavigationType.Pop && !restoresScroll(state)) window.scrollTo(0, 0);
    setAnnouncement('');

    const arrive = (heading: HTMLElement | null) => {
      if (!heading || !focusHeading(heading)) setAnnouncement(document.title);
    };
    const find = () => document.querySelector<HTMLElement>('main h1');
    const heading = find();
    if (heading) {
      arrive(heading);
      return;
    }
    const observer = new MutationObserver(() => {
      const arrived = find();
      if (!arrived) return;
      stop();
      arrive(arrived);
    });
    const timer = window.setTimeout(() => {
      stop();
      arrive(null);
    }, HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
    observer.observe(document.body, { childList: true, subtree: true });
    return stop;
    // Only a new path counts; its state is read as it was when the path changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname, navigationType]);

  return (
    <p role="status" className="sr-only">
      {announcement}
    </p>
  );
}
