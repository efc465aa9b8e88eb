import type { QueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '@shared/schemas/live-events.js';
import type { Product, ProductListItem } from '@shared/schemas/products.js';
import {
  isListData,
  isOlderThanStockWrite,
  patchCachedProduct,
  type ListData,
} from '@/lib/product-cache.js';
import { mutationKeys, queryKeys } from '@/lib/query-client.js';
import { productBeingSent } from '@/lib/stock-queue/index.js';

/**
 * A stock change of this tab is on its way for the product: its answer writes the stock, so an
 * event about an in-between state is not shown meanwhile (the number would jump back and forth).
 */
const ownStockWriteInFlight = (queryClient: QueryClient, id: string) =>
  productBeingSent() === id ||
  queryClient.isMutating({
    mutationKey: mutationKeys.stockChange,
    predicate: (mutation) => (mutation.state.variables as { id?: string } | undefined)?.id === id,
  }) > 0;

/**
 * Takes products out of every loaded page of the list and drops their own entries (and their
 * movements under them); a product page still open reads its product again and says it is gone.
 * Pages keep their cursors: the next page still starts where it did.
 */
function removeCachedProducts(queryClient: QueryClient, ids: readonly string[]) {
  const gone = new Set(ids);
  for (const [queryKey, data] of queryClient.getQueriesData({ queryKey: queryKeys.products })) {
    if (!isListData(data)) continue;
    if (!data.pages.some((page) => page.products.some((product) => gone.has(product.id)))) continue;
    queryClient.setQueryData<ListData>(queryKey, {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        products: page.products.filter((product) => !gone.has(product.id)),
      })),
    });
  }
  for (const id of ids) {
    queryClient.removeQueries({ queryKey: queryKeys.product(id), type: 'inactive' });
    void queryClient.invalidateQueries({ queryKey: queryKeys.product(id), type: 'active' });
  }
}

/** The event's product in the shape of the cached one: a list item keeps a list item's fields. */
const reshaped = <T extends ProductListItem>(cached: T, product: Product): T =>
  Object.fromEntries(
    Object.keys(cached).map((key) => [key, product[key as keyof Product]]),
  ) as unknown as T;

/** Summaries and the list's order may have changed: totals read again, lists on their next show. */
const afterChange = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.productSummaries }),
    queryClient.invalidateQueries({ queryKey: queryKeys.products, refetchType: 'none' }),
  ]);

/** Everything of the catalogue read again (a reset, an import, a long gap). */
export const readCatalogueAgain = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.products }),
    queryClient.invalidateQueries({ queryKey: queryKeys.productById }),
  ]);

/**
 * One change made elsewhere (another tab, device or person of the account), written into the
 * cached data sets in place: the loaded pages of every list, the product's own entry, and what
 * hangs off them. Stock and fields are absolute values, so an event seen twice changes nothing.
 */
export async function applyLiveEvent(queryClient: QueryClient, event: LiveEvent) {
  switch (event.kind) {
    case 'stock.changed': {
      const { id, stock, updatedAt } = event.data;
      if (ownStockWriteInFlight(queryClient, id) || isOlderThanStockWrite(id, updatedAt)) return;
      patchCachedProduct(queryClient, id, (product) =>
        product.stock === stock
          ? product
          : { ...product, stock, ...('updatedAt' in product ? { updatedAt } : {}) },
      );
      await Promise.all([
        afterChange(queryClient),
        queryClient.invalidateQueries({ queryKey: queryKeys.movements(id) }),
      ]);
      return;
    }
    case 'product.updated': {
      const { product } = event.data;
      const keepStock = ownStockWriteInFlight(queryClient, product.id);
      patchCachedProduct(queryClient, product.id, (cached) => ({
        ...reshaped(cached, product),
        stock: keepStock ? cached.stock : product.stock,
      }));
      await afterChange(queryClient);
      return;
    }
    case 'product.created': {
      // Where it belongs in each search and sort is the server's to say: the lists read again.
      queryClient.setQueryData(queryKeys.product(event.data.product.id), event.data.product);
      await queryClient.invalidateQueries({ queryKey: queryKeys.products });
      return;
    }
    case 'product.deleted':
    case 'products.deleted': {
      const ids = event.kind === 'product.deleted' ? [event.data.id] : event.data.ids;
      removeCachedProducts(queryClient, ids);
      await afterChange(queryClient);
      return;
    }
    case 'import.done':
    case 'reset':
      await readCatalogueAgain(queryClient);
      return;
  }
}
