import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PurchaseOrder } from '@shared/schemas/purchasing/purchase-orders.js';
import { apiRequest } from '@/lib/api-client.js';
import { apiDownload } from '@/lib/api-download.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { saveDownload } from '@/lib/download.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import {
  orderUrl,
  purchasingKeys,
  recordRequest,
  type RecordChange,
} from '@/lib/purchasing/urls.js';

const load = () => import('@shared/schemas/purchasing/purchase-orders.js');
const savedSchema = () => load().then((m) => m.purchaseOrderSavedSchema);

export {
  purchaseOrderQueryOptions,
  purchaseOrdersQueryOptions,
  usePurchaseOrder,
  usePurchaseOrders,
} from '@/lib/purchasing/orders-query.js';

/** A line as the PO page sends it: unit cost in dollars as typed ('' or null: the supplier's). */
interface OrderLineInput {
  productId: string;
  quantity: number;
  unitCost: string | number | null;
}

/** What a PATCH may carry: a draft's lines, date and notes, or a new status. */
interface OrderUpdate {
  lines?: OrderLineInput[];
  expectedAt?: string | null;
  notes?: string | null;
  status?: 'ordered' | 'cancelled';
}

interface OrderCreate {
  supplierId: string;
  expectedAt?: string | null;
  notes?: string | null;
  lines?: OrderLineInput[];
}

type OrderChange = RecordChange<OrderCreate, OrderUpdate> | { kind: 'send'; id: string };

/**
 * POST, PATCH, DELETE of an order, or its sending: the message is shown, the order's answer
 * written to its cache, and the lists read again.
 */
export function usePurchaseOrderChange(catalogue: CatalogueRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      change: OrderChange,
    ): Promise<{ message: string; purchaseOrder?: PurchaseOrder }> => {
      if (change.kind === 'send') {
        return apiRequest(savedSchema, {
          method: 'POST',
          url: orderUrl(catalogue, change.id, '/send'),
        });
      }
      const request = recordRequest(catalogue, 'purchase-orders', change);
      return change.kind === 'delete'
        ? apiRequest(messageResponse, request)
        : apiRequest(savedSchema, request);
    },
    onSuccess: ({ message, purchaseOrder }) => {
      notifySuccess(message);
      if (purchaseOrder) {
        queryClient.setQueryData(purchasingKeys.order(catalogue, purchaseOrder.id), purchaseOrder);
      }
    },
    onSettled: (_answer, _error, change) =>
      Promise.all([
        queryClient.invalidateQueries({
          queryKey: purchasingKeys.all(catalogue),
          // The deleted order's own entry is not read again (it would answer 404).
          predicate: (query) => change.kind !== 'delete' || query.queryKey[3] !== change.id,
        }),
      ]),
  });
}

/** GET …/purchase-orders/{poId}.pdf or .csv → the file, fetched with the token and saved. */
export function useDownloadOrder(catalogue: CatalogueRef) {
  return useMutation({
    mutationFn: ({ order, format }: { order: PurchaseOrder; format: 'pdf' | 'csv' }) =>
      apiDownload(
        { url: orderUrl(catalogue, order.id, `.${format}`) },
        `${order.number}.${format}`,
      ),
    onSuccess: saveDownload,
    onError: notifyError,
  });
}
