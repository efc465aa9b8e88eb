import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** How long a new screen may take to show its heading (a chunk, then its data) before we give up. */
const HEADING_WAIT_MS = 10_000;

/** Someone is typing there (a screen that focuses its own field, like the code boxes): keep it. */
const isFormControl = (element: Element | null) =>
  element instanceof HTMLInputElement ||
  element instanceof HTMLTextAreaElement ||
  element instanceof HTMLSelectElement;

function focusHeading(heading: HTMLElement) {
  if (isFormControl(document.activeElement)) return;
  // Focusable by script only: not a tab stop. The app's focus style (index.css) marks it for
  // keyboard users; a screen reader reads the heading, which names the new screen.
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

/**
 * What a move to another screen does after the first load (a new path, not a change of search
 * or sort): the page starts at the top (the browser keeps the old scroll position otherwise, 351 px
 * down on the edit screen of a phone) and the keyboard focus moves to the new screen's h1, so a
 * screen reader announces where the user arrived. The heading may come later than the route (a
 * lazily loaded screen, a spinner while its data loads): it is awaited.
 */
export function ScreenChange() {
  const { pathname } = useLocation();
  const shown = useRef(pathname);

  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    window.scrollTo(0, 0);

    const find = () => document.querySelector<HTMLElement>('main h1');
    const heading = find();
    if (heading) {
      focusHeading(heading);
      return;
    }
    const observer = new MutationObserver(() => {
      const arrived = find();
      if (!arrived) return;
      stop();
      focusHeading(arrived);
    });
    const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
    observer.observe(document.body, { childList: true, subtree: true });
    return stop;
  }, [pathname]);

  return null;
}
