import type { Position } from './cursor.js';

/** One step of a keyset walk: what it read, and where the next one starts (none: the end). */
export interface KeysetStep<T> {
  rows: T[];
  next: Position | undefined;
}

/**
 * The one page loop of every walk through a catalogue in index order (keyset pagination, like the
 * list's cursors): each step starts where the one before ended, a step is read only when the
 * caller asks for it, and the caller may stop at any time. The export's pages, a search's windows
 * on SQLite, a summary's windows and a reorder point change's pages all go through it.
 */
export async function* keysetPages<T>(
  read: (after: Position | undefined) => Promise<KeysetStep<T>>,
  from?: Position | undefined,
): AsyncGenerator<T[]> {
  let after = from;
  for (;;) {
    const { rows, next } = await read(after);
    if (rows.length > 0) yield rows;
    if (next === undefined) return;
    after = next;
  }
}
