import { describe, expect, it } from 'vitest';
import { productOfLink } from '@/features/scan/product-link.js';

describe('productOfLink', () => {
  it("reads the personal catalogue's product page on any host", () => {
    expect(productOfLink('https://shop.example/details/product/abc-123')).toEqual({
      id: 'abc-123',
    });
    expect(productOfLink('http://127.0.0.1:3000/details/product/abc-123/')).toEqual({
      id: 'abc-123',
    });
  });

  it("reads a shared catalogue's product page with its catalogue", () => {
    expect(productOfLink('https://shop.example/catalogues/cat-1/products/abc-123')).toEqual({
      id: 'abc-123',
      catalogueId: 'cat-1',
    });
  });

  it('takes nothing else for a link', () => {
    expect(productOfLink('4006381333931')).toBeUndefined();
    expect(productOfLink('/details/product/abc')).toBeUndefined();
    expect(productOfLink('https://shop.example/edit/product/abc')).toBeUndefined();
    expect(productOfLink('https://shop.example/details/product/abc/edit')).toBeUndefined();
    expect(
      productOfLink('https://shop.example/catalogues/cat-1/products/abc/edit'),
    ).toBeUndefined();
  });
});
