import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PurchaseOrderStatus } from '@shared/schemas/purchasing/purchase-orders.js';
import { apiRequest } from '@/lib/api-client.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { orderUrl, purchasingKeys, purchasingUrl } from './urls.js';

/** The orders' shapes, loaded beside their requests: zod stays out of the screens' code. */
const load = () => import('@shared/schemas/purchasing/purchase-orders.js');

/** GET …/purchase-orders(?status=) → {purchaseOrders}: the newest first, without their lines. */
export const purchaseOrdersQueryOptions = (catalogue: CatalogueRef, status?: PurchaseOrderStatus) =>
  queryOptions({
    queryKey: purchasingKeys.orders(catalogue, status),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(() => load().then((m) => m.purchaseOrdersResponseSchema), {
          url: purchasingUrl(catalogue, 'purchase-orders'),
          params: status ? { status } : undefined,
          signal,
        })
      ).purchaseOrders,
  });

export const usePurchaseOrders = (catalogue: CatalogueRef, status?: PurchaseOrderStatus) =>
  useQuery(purchaseOrdersQueryOptions(catalogue, status));

/** GET …/purchase-orders/{poId} → {purchaseOrder}, with its lines. */
export const purchaseOrderQueryOptions = (catalogue: CatalogueRef, id: string) =>
  queryOptions({
    queryKey: purchasingKeys.order(catalogue, id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(() => load().then((m) => m.purchaseOrderResponseSchema), {
          url: orderUrl(catalogue, id),
          signal,
        })
      ).purchaseOrder,
  });

export const usePurchaseOrder = (catalogue: CatalogueRef, id: string) =>
  useQuery(purchaseOrderQueryOptions(catalogue, id));
