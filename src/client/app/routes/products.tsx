import { listParamsOf, productsQueryOptions } from '@/features/products/api/get-products.js';
import {
  productsSummaryQueryOptions,
  STOCK_TABS,
} from '@/features/products/api/get-products-summary.js';
import { ProductsPage, ProductsPlaceholder } from '@/features/products/components/ProductsPage.js';
import { loadProductTable, TABLE_MEDIA_QUERY } from '@/features/products/components/lazy-table.js';
import { rememberedView } from '@/features/products/components/ViewToggle.js';
import { keepCatalogue, keptCatalogue } from '@/lib/catalogues/kept-catalogue.js';
import { queryClient } from '@/lib/query/query-client.js';
import { restoreSavedQueries } from '@/lib/query/query-persistence.js';
import { userQueryOptions } from '@/lib/session/get-user.js';
import type { ScreenHandle } from '../components/screen-placeholder.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/products.js';

/** Whether the list has been shown in this page: only its first showing may return elsewhere. */
let listShown = false;

/**
 * The list's first page, read before the screen renders, beside the current user rather than
 * after it; the stock filters' counts are asked for meanwhile (the summaries of the three
 * filters, the list's own among them) and show when they come. A search, sort or filter chosen on
 * the screen is the screen's to load (it keeps the results shown until the new ones come).
 */
export async function clientLoader({ request, params: route }: Route.ClientLoaderArgs) {
  const search = new URL(request.url).searchParams;
  const params = listParamsOf(search);
  const table = search.get('view') === 'table' || rememberedView() === 'table';
  if (table && window.matchMedia(TABLE_MEDIA_QUERY).matches) {
    loadProductTable().catch(() => undefined);
  }
  // Opening the app goes back to the catalogue last worked in; the list shown is the new last one.
  // The user is the layout's read (the same one): waited for only when a catalogue is kept. The
  // layout decides what a missing user means; here it only means nothing is kept or returned to.
  const user = restoreSavedQueries()
    .then(() => queryClient.query(cachedOrRead(userQueryOptions)))
    .catch(() => undefined);
  const kept = keptCatalogue();
  if (!listShown && !route.catalogueId && kept?.catalogueId) {
    // Loaded only then (a first visit has nothing to return to); offline and not kept, it stays.
    const back = await import('@/features/catalogues/last-catalogue/return-to-catalogue.js').catch(
      () => undefined,
    );
    await back?.returnToCatalogue(request, kept, user);
  }
  listShown = true;
  void user.then((me) => me && keepCatalogue(me.id, route.catalogueId));
  return loadScreenData(request, async () => {
    // Offline, a request for what was not saved can only fail: the counts wait for the connection.
    if (navigator.onLine) {
      for (const stock of STOCK_TABS) {
        void queryClient.prefetchQuery(
          productsSummaryQueryOptions(route.catalogueId, { ...params, stock }),
        );
      }
    }
    await queryClient.infiniteQuery(cachedOrRead(productsQueryOptions(route.catalogueId, params)));
  });
}

export { onlyWhenEntered as shouldRevalidate } from '../layouts/signed-in/route-data.js';

export const handle: ScreenHandle = { placeholder: <ProductsPlaceholder /> };

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default ProductsPage;
