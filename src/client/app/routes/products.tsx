import type { ClientLoaderFunctionArgs } from 'react-router';
import { listParamsOf, productsQueryOptions } from '@/features/products/api/get-products.js';
import {
  productsSummaryQueryOptions,
  STOCK_TABS,
} from '@/features/products/api/get-products-summary.js';
import { ProductsPage, ProductsPlaceholder } from '@/features/products/components/ProductsPage.js';
import { loadProductTable, TABLE_MEDIA_QUERY } from '@/features/products/components/lazy-table.js';
import { rememberedView } from '@/features/products/components/ViewToggle.js';
import { getToken } from '@/lib/auth/token.js';
import { queryClient } from '@/lib/query-client.js';
import type { ScreenHandle } from '../components/screen-placeholder.js';

/**
 * The list's first page and its summary are asked for as soon as the route matches, beside the
 * current user rather than after it (the layout shows its screen once the user is known). Not
 * awaited: the screen shows its own progress, and a failure is told where the data is used.
 */
export function clientLoader({ request, params: route }: ClientLoaderFunctionArgs) {
  // Offline, what an earlier visit saved is restored instead (lib/query-persistence.ts): a request
  // that can only fail would leave an error where that data is shown.
  if (!getToken() || !navigator.onLine) return null;
  const search = new URL(request.url).searchParams;
  const params = listParamsOf(search);
  const table = search.get('view') === 'table' || rememberedView() === 'table';
  if (table && window.matchMedia(TABLE_MEDIA_QUERY).matches) {
    loadProductTable().catch(() => undefined);
  }
  void queryClient.prefetchInfiniteQuery(productsQueryOptions(route.catalogueId, params));
  // The stock filters' counts: the summaries of the three filters, the list's own among them.
  for (const stock of STOCK_TABS) {
    void queryClient.prefetchQuery(
      productsSummaryQueryOptions(route.catalogueId, { ...params, stock }),
    );
  }
  return null;
}

export const handle: ScreenHandle = { placeholder: <ProductsPlaceholder /> };

export function HydrateFallback() {
  return <ProductsPlaceholder />;
}

export default ProductsPage;
