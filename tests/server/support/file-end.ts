/**
 * Work to do once the current test file is done (temp dirs to remove, processes to stop). The
 * server project shares modules between the files of a worker, so a support module's own
 * top-level afterAll would run after the first file only; tests/server/support/setup.ts runs these
 * after every file instead.
 */
const pending: (() => Promise<void>)[] = [];

export function atFileEnd(work: () => Promise<void>) {
  pending.push(work);
}

/** Runs and forgets what the file left, the latest first (as afterAll hooks run). */
export async function runFileEnd() {
  for (const work of pending.splice(0).reverse()) await work();
}
