import { describe, expect, it } from 'vitest';
import { M, V } from '../../src/shared/messages.js';

/**
 * The texts built from src/shared/constants.ts or from one sentence shared by several fields, word
 * for word: the spec's validation messages and ours must not move when a message is built instead
 * of written out.
 */
describe('messages built from the constants', () => {
  it('read exactly as written out', () => {
    expect(V).toMatchObject({
      nameRequired: 'Name is required',
      emailRequired: 'Email is required',
      passwordRequired: 'Password is required',
      confirmPasswordRequired: 'Confirm Password is required',
      priceRequired: 'Price is required',
      stockRequired: 'Stock is required',
      descriptionRequired: 'Description is required',
      priceMin: 'Price must be greater than 0',
      stockMin: 'Stock must be greater than 0',
      nameMax: 'Name must be less than 50 characters',
      passwordMin: 'Password must be at least 8 characters',
      passwordMax: 'Password must be at most 128 characters',
      codeInvalid: 'The code must be exactly 6 digits',
      priceMax: 'Price must be at most 99999999.99',
      productNameMax: 'Name must be at most 200 characters',
      descriptionMax: 'Description must be at most 5000 characters',
      limitInvalid: 'limit must be a whole number from 1 to 100',
      sortInvalid:
        'sort must be one of newest, oldest, name, price-asc, price-desc, stock-asc, stock-desc',
      searchTooLong:
        'q must be at most 200 characters (ligatures and similar characters count as the letters they stand for)',
    });
    expect(M).toMatchObject({
      signupDone: 'Check your email for the 6-digit code to confirm your account.',
      notConfirmed:
        'Your account is not confirmed yet. Enter the 6-digit code from your email: a new one is on its way unless one was sent recently.',
      imageTooLarge: 'The image must be at most 5 MB',
      imageTooManyPixels: 'The image must be at most 40 megapixels',
    });
  });
});
