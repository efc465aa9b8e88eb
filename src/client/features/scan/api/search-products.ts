import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';

const RESULTS = 8;

/** GET /products?q=&limit= → the first products whose name, description or codes match. */
export async function searchProducts(catalogue: CatalogueRef, q: string, signal?: AbortSignal) {
  const { products } = await apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productListResponseSchema),
    { url: productsUrl(catalogue), params: { q, limit: RESULTS }, signal },
  );
  return products;
}
