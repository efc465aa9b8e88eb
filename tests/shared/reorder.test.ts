import { describe, expect, it } from 'vitest';
import { effectiveReorderPoint, isToReorder } from '../../src/shared/reorder.js';

describe('the reorder rule (client copy)', () => {
  it("uses the product's own point, else the catalogue's", () => {
    expect(effectiveReorderPoint(null, 10)).toBe(10);
    expect(effectiveReorderPoint(0, 10)).toBe(0);
    expect(effectiveReorderPoint(undefined, 7)).toBe(7);
  });

  it('is to reorder at or below the point', () => {
    expect(isToReorder(10, null, 10)).toBe(true);
    expect(isToReorder(11, null, 10)).toBe(false);
    expect(isToReorder(0, 0, 10)).toBe(true);
    expect(isToReorder(1, 0, 10)).toBe(false);
    expect(isToReorder(40, 50, 10)).toBe(true);
  });
});
