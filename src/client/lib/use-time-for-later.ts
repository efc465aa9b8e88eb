import { useEffect, useState } from 'react';
import { afterPageSettles } from './after-settled.js';

/** How long after the page has settled code for later is fetched anyway, without a first act. */
const LATER_MS = 10_000;

/**
 * Whether the time has come for code the first screen does not need: once the page has settled
 * (lib/after-settled.ts) and the user has pressed or typed, at once if they did so earlier; or a
 * little later without either.
 */
export function useTimeForLater() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let acted = false;
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const go = () => setReady(true);
    const act = () => {
      acted = true;
      if (settled) go();
    };
    window.addEventListener('pointerdown', act, { once: true });
    window.addEventListener('keydown', act, { once: true });
    const cancelSettle = afterPageSettles(() => {
      settled = true;
      if (acted) go();
      else timer = setTimeout(go, LATER_MS);
    });
    return () => {
      cancelSettle();
      clearTimeout(timer);
      window.removeEventListener('pointerdown', act);
      window.removeEventListener('keydown', act);
    };
  }, []);
  return ready;
}
