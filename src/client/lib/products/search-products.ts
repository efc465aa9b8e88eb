import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';

/** How many products a search offers: a short list to pick one from. */
export const SEARCH_RESULTS = 8;

/**
 * GET …/products?q=&limit= → the first products that match what was typed, as the product list's
 * search matches them: the choices wherever one product is picked (the activity filter, a count's
 * line, a draft order's lines, a scanned code's product).
 */
export async function searchProducts(catalogue: CatalogueRef, q: string, signal?: AbortSignal) {
  const { products } = await apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productListResponseSchema),
    { url: productsUrl(catalogue), params: { q, limit: SEARCH_RESULTS }, signal },
  );
  return products;
}
