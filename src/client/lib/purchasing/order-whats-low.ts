import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { purchasingKeys, purchasingUrl } from './urls.js';

/**
 * POST …/purchase-orders/from-reorder → {message, purchaseOrders}: one draft per preferred
 * supplier of the products to reorder. The reports (what is on order) read again.
 */
export function useOrderWhatsLow(catalogue: CatalogueRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(
        () =>
          import('@shared/schemas/purchasing/purchase-orders.js').then(
            (m) => m.purchaseOrdersDraftedSchema,
          ),
        {
          method: 'POST',
          url: purchasingUrl(catalogue, 'purchase-orders', '/from-reorder'),
        },
      ),
    onSuccess: ({ message }) => notifySuccess(message),
    onError: notifyError,
    // What is on order shows beside what is to reorder: the reports read again too.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: purchasingKeys.all(catalogue) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
      ]),
  });
}
