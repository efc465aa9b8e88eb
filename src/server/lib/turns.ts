/** Work waiting for its next turn of the event loop, in the order it asked. */
const waiting: (() => void)[] = [];
let scheduled = false;

function runOne() {
  waiting.shift()?.();
  // Asked for during this phase, the next one runs in the loop's next turn, after its I/O.
  if (waiting.length > 0) setImmediate(runOne);
  else scheduled = false;
}

/**
 * Resolves in a later turn of the event loop, one caller a turn: CPU-heavy work that takes a
 * step at a time (a label of a PDF) adds one step to each turn however many such jobs run, so
 * the requests of everybody else are read and answered between steps as if one job ran.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (scheduled) return;
    scheduled = true;
    setImmediate(runOne);
  });
}
