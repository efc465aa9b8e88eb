import { describe, expect, it } from 'vitest';
import { productIdOfLink } from '@/features/scan/product-link.js';

describe('productIdOfLink', () => {
  it('reads the product id from the address on our labels’ QR codes, on any host', () => {
    expect(productIdOfLink('https://shop.example/details/product/abc-123')).toBe('abc-123');
    expect(productIdOfLink('http://127.0.0.1:3000/details/product/abc-123/')).toBe('abc-123');
  });

  it('leaves every other code alone', () => {
    expect(productIdOfLink('4006381333931')).toBeUndefined();
    expect(productIdOfLink('/details/product/abc')).toBeUndefined();
    expect(productIdOfLink('https://shop.example/edit/product/abc')).toBeUndefined();
    expect(productIdOfLink('https://shop.example/details/product/abc/edit')).toBeUndefined();
  });
});
