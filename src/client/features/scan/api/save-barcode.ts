import { apiRequest } from '@/lib/api-client.js';
import { queryClient, queryKeys } from '@/lib/query-client.js';

/** PATCH /products/{id} {barcode} → the product that now has the scanned code; 409 when another has it. */
export async function saveBarcode(id: string, barcode: string) {
  const { product } = await apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productMutationResponseSchema),
    { method: 'PATCH', url: `/products/${encodeURIComponent(id)}`, data: { barcode } },
  );
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.products, refetchType: 'none' }),
    queryClient.invalidateQueries({ queryKey: queryKeys.product(id), refetchType: 'none' }),
  ]);
  return product;
}
