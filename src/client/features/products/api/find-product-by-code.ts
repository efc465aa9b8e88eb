import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { getErrorStatus } from '@/lib/api-error.js';

/** GET /products/lookup?code= → the id of the product with that barcode or SKU; null if none. */
export async function findProductByCode(
  catalogue: CatalogueRef,
  code: string,
): Promise<string | null> {
  const answer = await apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productResponseSchema),
    { url: productsUrl(catalogue, '/lookup'), params: { code } },
  ).catch((error: unknown) => {
    if (getErrorStatus(error) === 404) return null;
    throw error;
  });
  return answer?.product.id ?? null;
}
