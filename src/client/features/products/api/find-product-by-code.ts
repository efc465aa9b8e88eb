import { apiRequest } from '@/lib/api-client.js';
import { getErrorStatus } from '@/lib/api-error.js';

/** GET /products/lookup?code= → the id of the product with that barcode or SKU; null if none. */
export async function findProductByCode(code: string): Promise<string | null> {
  const answer = await apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productResponseSchema),
    { url: '/products/lookup', params: { code } },
  ).catch((error: unknown) => {
    if (getErrorStatus(error) === 404) return null;
    throw error;
  });
  return answer?.product.id ?? null;
}
