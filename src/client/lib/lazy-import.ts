import { keepOnSuccess } from '@shared/keep-on-success.js';

export { keepOnSuccess };

/**
 * The app loads much of its code on demand (screens, the HTTP client, zod, toasts). A chunk that
 * fails to arrive (a dropped connection, a release that replaced it) is asked for once more before
 * the failure counts; the callers then explain it instead of leaving a blank screen.
 */
async function importWithRetry<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch {
    return load();
  }
}

/** A chunk loaded once: retried once when it fails, and asked for again on the next call. */
export const cachedImport = <T>(load: () => Promise<T>) =>
  keepOnSuccess(() => importWithRetry(load));

/** The TypeError a failed dynamic import() rejects with (Chromium, Firefox and Safari wordings). */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /dynamically imported module|module script failed|importing a module script/i.test(
      error.message,
    )
  );
}

/**
 * Fetches a chunk ahead of need (a form got focus). A failure here is not reported: the use that
 * follows loads it again and says what went wrong.
 */
export function preload(load: () => Promise<unknown>) {
  load().catch(() => undefined);
}
