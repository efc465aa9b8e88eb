const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;

/**
 * A 429's Retry-After (seconds, or an HTTP date) as words: '45 seconds', '2 minutes', '3 hours'.
 * Rounded up, so that trying again after the time said works. Undefined when there is none.
 */
export function waitInWords(retryAfter: unknown, now = Date.now()): string | undefined {
  if (typeof retryAfter !== 'string' || retryAfter.trim() === '') return undefined;
  const value = retryAfter.trim();
  const seconds = /^\d+$/.test(value) ? Number(value) : Math.ceil((Date.parse(value) - now) / 1000);
  if (!Number.isFinite(seconds)) return undefined;
  if (seconds <= 60) return plural(Math.max(seconds, 1), 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 90) return plural(minutes, 'minute');
  return plural(Math.ceil(minutes / 60), 'hour');
}
