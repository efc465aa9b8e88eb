import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Product, ProductListItem, ProductListResponse } from '@shared/schemas/products.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { queryKeys } from '@/lib/query/query-client.js';

export type ListData = InfiniteData<ProductListResponse>;

export const isListData = (data: unknown): data is ListData =>
  typeof data === 'object' && data !== null && 'pages' in data;

/**
 * Changes one product of a catalogue wherever the cache holds it: in every loaded page of every
 * search, sort and filter of its list, and in its own entry. Nothing is fetched; a product not
 * cached stays so.
 */
export function patchCachedProduct(
  queryClient: QueryClient,
  catalogue: CatalogueRef,
  id: string,
  patch: <T extends ProductListItem>(product: T) => T,
) {
  for (const [queryKey, data] of queryClient.getQueriesData({
    queryKey: queryKeys.products(catalogue),
  })) {
    if (!isListData(data)) continue;
    queryClient.setQueryData<ListData>(queryKey, {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        products: page.products.map((product) => (product.id === id ? patch(product) : product)),
      })),
    });
  }
  queryClient.setQueryData<Product>(queryKeys.product(catalogue, id), (product) =>
    product ? patch(product) : product,
  );
}

/** Stops the reads of the list and of the product that could land over a change made here. */
export const cancelProductReads = (queryClient: QueryClient, catalogue: CatalogueRef, id: string) =>
  Promise.all([
    queryClient.cancelQueries({ queryKey: queryKeys.products(catalogue) }),
    queryClient.cancelQueries({ queryKey: queryKeys.product(catalogue, id), exact: true }),
  ]);

/**
 * When this tab last wrote each product's stock from a server answer: a live event about an older
 * state that arrives after it (the stream is slower than the answer) is not shown over it.
 */
const lastStockWrite = new Map<string, number>();

export const noteStockWrite = (id: string, updatedAt: string) =>
  lastStockWrite.set(id, Date.parse(updatedAt));

export const isOlderThanStockWrite = (id: string, updatedAt: string) =>
  Date.parse(updatedAt) < (lastStockWrite.get(id) ?? -Infinity);

/**
 * A product the list showed, as its own entry, for a product screen that cannot be read (offline):
 * the list's fields, and none of those it lacks (no cost, no dates: `createdAt` is empty, which
 * isFromList tells). Stale from the start, so that it is read again once the connection is back.
 */
export function seedFromList(
  queryClient: QueryClient,
  catalogue: CatalogueRef,
  id: string,
): Product | undefined {
  for (const [, data] of queryClient.getQueriesData({ queryKey: queryKeys.products(catalogue) })) {
    if (!isListData(data)) continue;
    for (const page of data.pages) {
      const listed = page.products.find((product) => product.id === id);
      if (!listed) continue;
      const product: Product = {
        ...listed,
        imageWidth: null,
        imageHeight: null,
        cost: null,
        active: true,
        createdAt: '',
        updatedAt: '',
      };
      queryClient.setQueryData(queryKeys.product(catalogue, id), product, { updatedAt: 0 });
      return product;
    }
  }
  return undefined;
}

/** Whether a product entry holds only what the list showed (seedFromList). */
export const isFromList = (product: Product) => product.createdAt === '';
