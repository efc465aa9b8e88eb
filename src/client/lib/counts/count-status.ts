import type { Count } from '@shared/schemas/counts/counts.js';

/**
 * Whether lines may still be counted into a count (a recount in review too): the count screen
 * and /scan's count mode both ask.
 */
export const isActive = (count: Pick<Count, 'status'>) =>
  count.status === 'open' || count.status === 'review';
