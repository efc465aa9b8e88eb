import { describe, expect, it } from 'vitest';
import { firstErrorPerField } from '../../src/shared/field-errors.js';

describe('firstErrorPerField', () => {
  it('keeps one entry per field, the first issue of each, in the order the fields failed', () => {
    expect(
      firstErrorPerField([
        { path: 'price', message: 'Price is required' },
        { path: 'name', message: 'Name is required' },
        { path: 'price', message: 'Price must be greater than 0' },
      ]),
    ).toEqual([
      { path: 'price', message: 'Price is required' },
      { path: 'name', message: 'Name is required' },
    ]);
  });

  it('copies only the path and the message', () => {
    const issue = { path: 'stock', message: 'Stock is required', code: 'custom' };
    expect(firstErrorPerField([issue])).toEqual([{ path: 'stock', message: 'Stock is required' }]);
  });
});
