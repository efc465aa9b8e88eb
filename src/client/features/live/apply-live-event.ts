import type { QueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '@shared/schemas/live-events.js';
import type { Product, ProductListItem } from '@shared/schemas/products.js';
import {
  isListData,
  isOlderThanStockWrite,
  patchCachedProduct,
  type ListData,
} from '@/lib/query/product-cache.js';
import { catalogueKey, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { patchCountLine } from '@/lib/counts/counts-query.js';
import { refetchCoalesced } from '@/lib/query/coalesced-refetch.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { stockChangesInFlight } from '@/lib/stock-change/index.js';

/**
 * A stock change of this tab is on its way for the product: its answer writes the stock, so an
 * event about an in-between state is not shown meanwhile (the number would jump back and forth).
 */
const ownStockWriteInFlight = (id: string) => stockChangesInFlight(id) > 0;

/**
 * Takes products out of every loaded page of the list and drops their own entries (and their
 * movements under them); a product page still open reads its product again and says it is gone.
 * Pages keep their cursors: the next page still starts where it did.
 */
function removeCachedProducts(
  queryClient: QueryClient,
  catalogue: CatalogueRef,
  ids: readonly string[],
) {
  const gone = new Set(ids);
  for (const [queryKey, data] of queryClient.getQueriesData({
    queryKey: queryKeys.products(catalogue),
  })) {
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
    queryClient.removeQueries({ queryKey: queryKeys.product(catalogue, id), type: 'inactive' });
    void queryClient.invalidateQueries({
      queryKey: queryKeys.product(catalogue, id),
      type: 'active',
    });
  }
}

/** The event's product in the shape of the cached one: a list item keeps a list item's fields. */
const reshaped = <T extends ProductListItem>(cached: T, product: Product): T =>
  Object.fromEntries(
    Object.keys(cached).map((key) => [key, product[key as keyof Product]]),
  ) as unknown as T;

/** Summaries and the list's order may have changed: totals read again, lists on their next show. */
const afterChange = (queryClient: QueryClient, catalogue: CatalogueRef) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.productSummaries(catalogue) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue), refetchType: 'none' }),
  ]);

/** Everything of one catalogue read again (an import). */
const readCatalogueAgain = (queryClient: QueryClient, catalogue: CatalogueRef) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.catalogueProducts(catalogue) }),
  ]);

/**
 * Everything of every catalogue read again, and the catalogues themselves (a reset, a long gap:
 * what was missed may be anything, memberships included).
 */
export const readEverythingAgain = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.allProducts }),
    queryClient.invalidateQueries({ queryKey: queryKeys.productById }),
    queryClient.invalidateQueries({ queryKey: queryKeys.catalogues }),
  ]);

/**
 * One change made elsewhere (another tab, device or person), written into the cached data sets of
 * its catalogue in place (none: the personal one): the loaded pages of every list, the product's
 * own entry, and what hangs off them. Stock and fields are absolute values, so an event seen twice
 * changes nothing.
 */
export async function applyLiveEvent(
  queryClient: QueryClient,
  event: LiveEvent,
  catalogue: CatalogueRef = undefined,
) {
  // Every change is an entry of the catalogue's activity log: an open log reads again.
  void queryClient.invalidateQueries({ queryKey: queryKeys.activity(catalogue) });
  switch (event.kind) {
    case 'stock.changed': {
      const { id, stock, updatedAt } = event.data;
      if (ownStockWriteInFlight(id) || isOlderThanStockWrite(id, updatedAt)) return;
      patchCachedProduct(queryClient, catalogue, id, (product) =>
        product.stock === stock
          ? product
          : { ...product, stock, ...('updatedAt' in product ? { updatedAt } : {}) },
      );
      await Promise.all([
        afterChange(queryClient, catalogue),
        queryClient.invalidateQueries({ queryKey: queryKeys.movements(catalogue, id) }),
      ]);
      return;
    }
    case 'product.updated': {
      const { product } = event.data;
      const keepStock = ownStockWriteInFlight(product.id);
      patchCachedProduct(queryClient, catalogue, product.id, (cached) => ({
        ...reshaped(cached, product),
        stock: keepStock ? cached.stock : product.stock,
      }));
      await afterChange(queryClient, catalogue);
      return;
    }
    case 'product.created': {
      // Where it belongs in each search and sort is the server's to say: the lists read again.
      queryClient.setQueryData(
        queryKeys.product(catalogue, event.data.product.id),
        event.data.product,
      );
      await queryClient.invalidateQueries({ queryKey: queryKeys.products(catalogue) });
      return;
    }
    case 'product.deleted':
    case 'products.deleted': {
      const ids = event.kind === 'product.deleted' ? [event.data.id] : event.data.ids;
      removeCachedProducts(queryClient, catalogue, ids);
      await afterChange(queryClient, catalogue);
      return;
    }
    case 'import.done':
      await readCatalogueAgain(queryClient, catalogue);
      return;
    case 'count.updated':
      // A posting (or its undo) changed many products' stock at once: read them again.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.counts(catalogue) }),
        event.data.stockChanged && readCatalogueAgain(queryClient, catalogue),
      ]);
      return;
    case 'count.line': {
      // Another counter's line shows on the count's screen at once: in place where it can be,
      // else read again. Several counters make bursts of these: one read at a time, and one more
      // after it when news came meanwhile (a read on its way may not hold a line patched now).
      const { countId } = event.data;
      const key = queryKeys.count(catalogue, countId);
      const patched = patchCountLine(queryClient, catalogue, countId, event.data);
      await Promise.all([
        (!patched || queryClient.isFetching({ queryKey: key, exact: true }) > 0) &&
          refetchCoalesced(queryClient, key),
        refetchCoalesced(queryClient, queryKeys.countList(catalogue)),
      ]);
      return;
    }
    case 'stock.transferred':
      // Totals stay; where the stock is shows on each product's page and the locations' screens.
      await Promise.all([
        ...event.data.ids.map((id) =>
          queryClient.invalidateQueries({ queryKey: queryKeys.product(catalogue, id) }),
        ),
        queryClient.invalidateQueries({ queryKey: ['locations'] }),
      ]);
      return;
    case 'purchasing.changed':
      // Suppliers and orders read again; a receipt changes stock and costs: the catalogue too.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['purchasing', catalogueKey(catalogue)] }),
        event.data.productIds.length > 0 && readCatalogueAgain(queryClient, catalogue),
      ]);
      return;
    case 'reset':
      await readEverythingAgain(queryClient);
      return;
  }
}
