import { setImmediate } from 'node:timers/promises';

/** Rows a sweep deletes per statement: a few milliseconds of the write lock. */
const DELETED_PER_STATEMENT = 1_000;

/**
 * Runs `step`, a statement that deletes at most `limit` rows and says how many it deleted, until
 * one deletes fewer, with a turn of the event loop between: a sweep of rows that piled up (the
 * million webhook deliveries of one bulk write) held SQLite's write lock and the event loop for
 * seconds as one statement. Returns how many rows went.
 */
export async function deleteInBatches(
  step: (limit: number) => Promise<{ numDeletedRows: bigint }>,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { numDeletedRows } = await step(DELETED_PER_STATEMENT);
    deleted += Number(numDeletedRows);
    if (Number(numDeletedRows) < DELETED_PER_STATEMENT) return deleted;
    await setImmediate();
  }
}
