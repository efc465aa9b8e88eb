import type { StockReason } from '@shared/constants.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryClient, queryKeys } from '@/lib/query-client.js';

/** A scan's stock change: units added (`delta`, negative: taken) or the stock as counted. */
export type ScanChange = { reason?: StockReason; note: string } & (
  { delta: number } | { count: number }
);

/**
 * POST /products/{id}/stock → the product as the change left it; 409 when a delta would take the
 * stock below 0. The list and the product's screens read it again when next shown.
 */
export async function changeStock(id: string, change: ScanChange) {
  const { product } = await apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productMutationResponseSchema),
    { method: 'POST', url: `/products/${encodeURIComponent(id)}/stock`, data: change },
  );
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.products, refetchType: 'none' }),
    queryClient.invalidateQueries({ queryKey: queryKeys.product(id), refetchType: 'none' }),
  ]);
  return product;
}
