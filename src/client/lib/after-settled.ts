/** How long after the page's load event code that no screen needs at once waits. */
const SETTLE_MS = 2_000;

/**
 * Runs `task` a little after the page has loaded: for code that keeps things in step (sending
 * waiting changes, following live updates) rather than draws the screen, so that it does not
 * compete with the first visit's own downloads. Returns the function that cancels it.
 */
export function afterPageSettles(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = () => {
    timer = setTimeout(task, SETTLE_MS);
  };
  if (document.readyState === 'complete') wait();
  else window.addEventListener('load', wait, { once: true });
  return () => {
    window.removeEventListener('load', wait);
    clearTimeout(timer);
  };
}
