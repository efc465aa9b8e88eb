/**
 * A 429's Retry-After (seconds, or an HTTP date) in whole seconds, rounded up and at least 1, so
 * that trying again after the time said works. Undefined when there is none or it cannot be read.
 */
export function retryAfterSeconds(retryAfter: unknown, now = Date.now()): number | undefined {
  if (typeof retryAfter !== 'string' || retryAfter.trim() === '') return undefined;
  const value = retryAfter.trim();
  const seconds = /^\d+$/.test(value) ? Number(value) : Math.ceil((Date.parse(value) - now) / 1000);
  return Number.isFinite(seconds) ? Math.max(seconds, 1) : undefined;
}
