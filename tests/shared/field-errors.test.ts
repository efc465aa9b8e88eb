import { describe, expect, it } from 'vitest';
import { errorAnswerMessage, firstErrorPerField } from '../../src/shared/field-errors.js';

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

describe('errorAnswerMessage', () => {
  it("is the answer's message", () => {
    expect(errorAnswerMessage({ message: 'Incorrect email or password' })).toBe(
      'Incorrect email or password',
    );
  });

  it('else the message of its first well-formed field error', () => {
    expect(
      errorAnswerMessage({
        message: '',
        errors: [
          { message: 'no path' },
          { path: 'name', message: 'Name is required' },
          { path: 'price', message: 'Price is required' },
        ],
      }),
    ).toBe('Name is required');
  });

  it('is undefined for a body of another shape', () => {
    for (const body of [undefined, null, '<html>', { errors: 'none' }, { errors: [] }, 42]) {
      expect(errorAnswerMessage(body)).toBeUndefined();
    }
  });
});
