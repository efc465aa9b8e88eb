import { IMAGE_CACHE_NAME } from '@shared/constants.js';

/** Empties the service worker's pictures, so that one user's are never shown to the next. */
export async function clearImageCache() {
  if (typeof caches === 'undefined') return;
  try {
    await caches.delete(IMAGE_CACHE_NAME);
  } catch {
    // Storage unavailable (a private window's rules): nothing was cached either.
  }
}
