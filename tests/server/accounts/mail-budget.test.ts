import { describe, expect, it } from 'vitest';
import { fitsMailBudget } from '../../../src/server/features/accounts/mail-budget.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const at = Date.parse('2026-01-01T12:00:00Z');

describe('the mail budget rule: one a minute, five an hour, per address and purpose', () => {
  it('the first request fits', () => {
    expect(fitsMailBudget([], at)).toBe(true);
  });

  it('a request less than 60 s after a counted one does not fit; one at 60 s does', () => {
    expect(fitsMailBudget([at - MINUTE + 1], at)).toBe(false);
    expect(fitsMailBudget([at - MINUTE], at)).toBe(true);
  });

  it('a request less than 60 s before one counted already (reached out of order) does not fit', () => {
    expect(fitsMailBudget([at + MINUTE - 1], at)).toBe(false);
    expect(fitsMailBudget([at + MINUTE], at)).toBe(true);
  });

  it('four in the last hour leave room for a fifth; five leave none until the oldest is an hour old', () => {
    const four = [1, 2, 3, 4].map((i) => at - i * 10 * MINUTE);
    expect(fitsMailBudget(four, at)).toBe(true);
    const five = [...four, at - HOUR + 1];
    expect(fitsMailBudget(five, at)).toBe(false);
    expect(fitsMailBudget([...four, at - HOUR], at)).toBe(true);
  });

  it('requests counted after this one (out of order) count in its hour', () => {
    const later = [1, 2, 3, 4, 5].map((i) => at + i * 2 * MINUTE);
    expect(fitsMailBudget(later, at)).toBe(false);
  });
});
