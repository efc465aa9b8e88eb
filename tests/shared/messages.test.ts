import { describe, expect, it } from 'vitest';
import { M, T, V } from '../../src/shared/messages.js';

/**
 * The texts built from src/shared/constants.ts or from one sentence shared by several fields, word
 * for word: no validation message may move when a message is built instead
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
      stockFilterInvalid: 'stock must be one of low, out, reorder',
      deltaInvalid: 'delta must be a whole number from -2147483647 to 2147483647, other than 0',
      noteInvalid: 'note must be text of at most 500 characters',
      movementLimitInvalid: 'limit must be a whole number from 1 to 100',
      idsInvalid: 'ids must be a list of 1 to 100 product ids',
    });
    expect(M).toMatchObject({
      signupDone: 'Check your email for the 6-digit code to confirm your account.',
      notConfirmed:
        'Your account is not confirmed yet. Enter the 6-digit code from your email: a new one is on its way unless one was sent recently.',
      imageTooLarge: 'The image must be at most 5 MB',
      imageTooManyPixels: 'The image must be at most 40 megapixels',
      stockAboveMax: 'Stock cannot be more than 2147483647',
      importTooLarge: 'The CSV file must be at most 10 MB',
      importTooManyRows: 'The CSV file must have at most 50,000 rows besides the header',
      importEmpty:
        'The CSV file is empty: its first line must name the columns (name, price, stock, description)',
    });
  });

  it('put counts and names into the same words every time', () => {
    expect(T.imported(1)).toBe('1 product imported');
    expect(T.imported(10_000)).toBe('10,000 products imported');
    expect(T.importChecked(3)).toBe('3 products ready to import');
    expect(T.importCheckedWithErrors(2, 1)).toBe('2 products ready to import; 1 row has errors');
    expect(T.importFailed(1)).toBe('Nothing was imported: 1 row has errors');
    expect(T.importFailed(1001)).toBe('Nothing was imported: 1,001 rows have errors');
    expect(T.importMissingColumn('price')).toBe('The header row has no "price" column');
    expect(T.importRepeatedColumn('name')).toBe('The header row names the "name" column twice');
    expect(T.stockBelowZero(3, -4)).toBe('Not enough stock: 3 in stock, cannot take away 4');
    expect(T.productsDeleted(1)).toBe('1 product deleted');
    expect(T.productsDeleted(100)).toBe('100 products deleted');
  });
});
