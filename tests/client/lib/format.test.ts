import { describe, expect, it } from 'vitest';
import { formatPrice, formatUnits } from '@/lib/format.js';

describe('formatPrice', () => {
  it('writes US dollars in the en-US format with 2 decimals', () => {
    expect(formatPrice(19.99)).toBe('$19.99');
    expect(formatPrice(4.5)).toBe('$4.50');
    expect(formatPrice(249)).toBe('$249.00');
    expect(formatPrice(0.01)).toBe('$0.01');
  });

  it('groups thousands', () => {
    expect(formatPrice(1299.5)).toBe('$1,299.50');
    expect(formatPrice(99_999_999.99)).toBe('$99,999,999.99');
  });

  it('writes a total sent as an exact decimal string digit for digit', () => {
    expect(formatPrice('107374181276258176500.07')).toBe('$107,374,181,276,258,176,500.07');
  });
});

describe('formatUnits', () => {
  it('counts stock in units', () => {
    expect(formatUnits(0)).toBe('0 units');
    expect(formatUnits(1)).toBe('1 unit');
    expect(formatUnits(12)).toBe('12 units');
  });
});
