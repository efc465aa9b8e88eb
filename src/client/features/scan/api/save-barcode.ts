import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { queryClient, queryKeys } from '@/lib/query/query-client.js';

/** PATCH /products/{id} {barcode} → the product that now has the scanned code; 409 when another has it. */
export async function saveBarcode(catalogue: CatalogueRef, id: string, barcode: string) {
  const { product } = await apiRequest(
    () => import('@shared/schemas/products.js').then((m) => m.productMutationResponseSchema),
    {
      method: 'PATCH',
      url: productsUrl(catalogue, `/${encodeURIComponent(id)}`),
      data: { barcode },
    },
  );
  await Promise.all([
    queryClient.invalidateQueries({
      queryKey: queryKeys.products(catalogue),
      refetchType: 'none',
    }),
    queryClient.invalidateQueries({
      queryKey: queryKeys.product(catalogue, id),
      refetchType: 'none',
    }),
  ]);
  return product;
}
