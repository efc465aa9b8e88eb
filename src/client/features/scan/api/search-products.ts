import { apiRequest } from '@/lib/api-client.js';

const RESULTS = 8;

/** GET /products?q=&limit= → the first products whose name, description or codes match. */
export async function searchProducts(q: string, signal?: AbortSignal) {
  const { products } = await apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productListResponseSchema),
    { url: '/products', params: { q, limit: RESULTS }, signal },
  );
  return products;
}
