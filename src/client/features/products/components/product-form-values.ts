import type { Product } from '@shared/schemas/products.js';
import type { ProductFormValues } from '@shared/schemas/product-forms.js';

/** A product as its form shows it: money written with two decimals (19.5 as 19.50). */
export const formValuesOf = (product: Product): ProductFormValues => ({
  name: product.name,
  price: product.price.toFixed(2),
  stock: String(product.stock),
  description: product.description,
  sku: product.sku ?? '',
  barcode: product.barcode ?? '',
  cost: product.cost === null ? '' : product.cost.toFixed(2),
  tags: product.tags,
  reorderPoint: product.reorderPoint == null ? '' : String(product.reorderPoint),
  reorderQuantity: product.reorderQuantity == null ? '' : String(product.reorderQuantity),
});

/** What 'Duplicate' hands the create form, in the navigation's state. */
interface CopyState {
  copyOf: ProductFormValues;
}

/**
 * The create form's values for a copy of `product`: everything but its codes, which must stay
 * unique, and a stock below the form's minimum, which the user must choose.
 */
export function copyStateOf(product: Product, minStock: number): CopyState {
  const values = formValuesOf(product);
  return {
    copyOf: {
      ...values,
      stock: product.stock >= minStock ? values.stock : '',
      sku: '',
      barcode: '',
    },
  };
}

export const copiedValues = (state: unknown): ProductFormValues | undefined =>
  typeof state === 'object' && state !== null && 'copyOf' in state
    ? (state as CopyState).copyOf
    : undefined;
