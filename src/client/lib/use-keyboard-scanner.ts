import { useEffect, useRef } from 'react';
import { KeyboardBurst } from './keyboard-burst.js';

/**
 * How long after the last key a run with no Enter or Tab is given up: well past any stall of a busy
 * page between a scanner's keys, and still before the user looks up from the shelf.
 */
const IDLE_CHECK_MS = 1_000;

/**
 * Keys typed into a field belong to that field (a quick typist's Enter in a form is never a scan),
 * unless the field takes scans: it says so with `data-keyboard-scanner`.
 */
const belongsToField = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) &&
  target.dataset.keyboardScanner === undefined;

interface ScannerHandlers {
  /** A code a scanner typed (lib/keyboard-burst.ts tells it from a person's typing). */
  onCode: (code: string) => void;
  /** A burst typed like a scan that is not a code, or that no Enter or Tab ended. */
  onIgnored: (typed: string) => void;
}

/**
 * Hears what a keyboard scanner types while no field (or a field that takes scans) has the focus;
 * the Enter or Tab that ends a scan does nothing else. Typing by hand is left alone.
 */
export function useKeyboardScanner(handlers: ScannerHandlers) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  }, [handlers]);

  useEffect(() => {
    const burst = new KeyboardBurst();
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (belongsToField(event.target)) {
        burst.reset();
        return;
      }
      // The key's own time: a loaded page handling keys late does not stretch the run.
      const result = burst.key(event.key, event.timeStamp);
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        const late = burst.idle();
        if (late && 'ignored' in late) latest.current.onIgnored(late.ignored);
      }, IDLE_CHECK_MS);
      if (!result) return;
      event.preventDefault();
      event.stopPropagation();
      if ('scan' in result) latest.current.onCode(result.scan);
      else latest.current.onIgnored(result.ignored);
    };
    // Capture: before the focused field's form hears the Enter.
    window.addEventListener('keydown', onKeyDown, true);
    return () => {
      clearTimeout(idleTimer);
      window.removeEventListener('keydown', onKeyDown, true);
    };
  }, []);
}
