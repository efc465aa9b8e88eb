import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ProductSuppliersBody,
  SupplierCreate,
  SupplierUpdate,
} from '@shared/schemas/purchasing/suppliers.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { notifySuccess } from '@/lib/notify.js';
import { queryKeys } from '@/lib/query/query-client.js';
import {
  purchasingKeys,
  purchasingUrl,
  recordRequest,
  type RecordChange,
} from '@/lib/purchasing/urls.js';

/** The suppliers' shapes, loaded beside their requests: zod stays out of the screens' code. */
const load = () => import('@shared/schemas/purchasing/suppliers.js');

/** GET …/suppliers → {suppliers}, by name. */
export const suppliersQueryOptions = (catalogue: CatalogueRef) =>
  queryOptions({
    queryKey: purchasingKeys.suppliers(catalogue),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(() => load().then((m) => m.suppliersResponseSchema), {
          url: purchasingUrl(catalogue, 'suppliers'),
          signal,
        })
      ).suppliers,
  });

export const useSuppliers = (catalogue: CatalogueRef) => useQuery(suppliersQueryOptions(catalogue));

type SupplierChange = RecordChange<SupplierCreate, SupplierUpdate>;

/** POST, PATCH or DELETE of a supplier → {message}: the message is shown and the list read again. */
export function useSupplierChange(catalogue: CatalogueRef) {
  const queryClient = useQueryClient();
  const saved = () => load().then((m) => m.supplierSavedSchema);
  return useMutation({
    mutationFn: (change: SupplierChange) => {
      const request = recordRequest(catalogue, 'suppliers', change);
      return change.kind === 'delete'
        ? apiRequest(messageResponse, request)
        : apiRequest(saved, request);
    },
    onSuccess: ({ message }) => notifySuccess(message),
    // A deleted supplier leaves the products that named it.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: purchasingKeys.all(catalogue) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.catalogueProducts(catalogue) }),
      ]),
  });
}

/** One line of a product's suppliers as the form sends it (cost in dollars, as typed). */
export type ProductSupplierInput = Omit<ProductSuppliersBody['suppliers'][number], 'cost'> & {
  cost: string | null;
};

/** PUT …/products/{id}/suppliers {suppliers} → {message, suppliers}: all of them, replaced. */
export function useSaveProductSuppliers(catalogue: CatalogueRef, productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (suppliers: ProductSupplierInput[]) =>
      apiRequest(() => load().then((m) => m.productSuppliersResponseSchema), {
        method: 'PUT',
        url: productsUrl(catalogue, `/${encodeURIComponent(productId)}/suppliers`),
        data: { suppliers },
      }),
    onSuccess: ({ message }) => notifySuccess(message),
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: queryKeys.product(catalogue, productId),
        exact: true,
      }),
  });
}
