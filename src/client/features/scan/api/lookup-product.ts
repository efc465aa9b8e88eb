import type { Product } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { getErrorStatus } from '@/lib/api-error.js';

/** GET /products/lookup?code= → the product with that barcode or SKU, or null when none has it. */
export async function lookupProduct(code: string): Promise<Product | null> {
  try {
    const { product } = await apiRequest(
      () => import('@shared/schemas/products.js').then((m) => m.productResponseSchema),
      { url: '/products/lookup', params: { code } },
    );
    return product;
  } catch (error) {
    if (getErrorStatus(error) === 404) return null;
    throw error;
  }
}
