import { useEffect, useRef } from 'react';

/**
 * A USB or Bluetooth scanner types its code like a keyboard, far faster than a person (a few ms
 * between keys; people take 80 ms or more), then Enter.
 */
const MAX_GAP_MS = 50;
const MIN_LENGTH = 4;

/**
 * Keys typed into a field belong to that field (a quick typist's Enter in a form is never a scan),
 * unless the field takes scans: it says so with `data-keyboard-scanner`.
 */
const belongsToField = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) &&
  target.dataset.keyboardScanner === undefined;

/**
 * Calls `onCode` with what a keyboard scanner typed while no field (or a field that takes scans)
 * has the focus; the Enter that ends it does nothing else. Typing by hand is left alone.
 */
export function useKeyboardScanner(onCode: (code: string) => void) {
  const latest = useRef(onCode);
  useEffect(() => {
    latest.current = onCode;
  }, [onCode]);

  useEffect(() => {
    let typed = '';
    let last = -Infinity;
    const onKeyDown = (event: KeyboardEvent) => {
      if (belongsToField(event.target)) {
        typed = '';
        return;
      }
      const quick = event.timeStamp - last <= MAX_GAP_MS;
      last = event.timeStamp;
      if (event.key === 'Enter') {
        if (quick && typed.length >= MIN_LENGTH) {
          event.preventDefault();
          event.stopPropagation();
          latest.current(typed);
        }
        typed = '';
      } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
        typed = quick ? typed + event.key : event.key;
      } else if (event.key !== 'Shift') {
        typed = '';
      }
    };
    // Capture: before the focused field's form hears the Enter.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);
}
