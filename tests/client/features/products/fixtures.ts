import type { Product } from '@shared/schemas/products.js';

export const product = (overrides: Partial<Product> = {}): Product => ({
  id: 'p1',
  name: 'Desk Lamp',
  price: 39.9,
  stock: 24,
  description: 'A lamp for the desk.',
  image: 'http://localhost/images/p1.webp',
  thumbnail: 'http://localhost/images/p1-thumb.webp',
  imageWidth: 900,
  imageHeight: 600,
  sku: null,
  barcode: null,
  tags: [],
  cost: null,
  active: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  reorderPoint: null,
  reorderQuantity: null,
  ...overrides,
});

/** A product as the list carries it (no `active`, no cost, no dates). */
export const listed = (overrides: Partial<Product> = {}) => {
  const {
    active: _a,
    cost: _cost,
    createdAt: _c,
    updatedAt: _u,
    reorderQuantity: _q,
    ...item
  } = product(overrides);
  return item;
};
