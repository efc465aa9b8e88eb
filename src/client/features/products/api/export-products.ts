import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-download.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import type { ProductListParams } from './get-products.js';

/** What a download is saved as when the server names no file. */
const FALLBACK_NAME = 'products.csv';

/**
 * GET /products/export.csv?q&sort&stock → the CSV file (with the bearer token, so fetched rather
 * than linked to), and the name the server gives it.
 */
const exportProducts = (catalogue: CatalogueRef, { q, sort, stock, tag }: ProductListParams) =>
  apiDownload(
    { url: productsUrl(catalogue, '/export.csv'), params: { q: q || undefined, sort, stock, tag } },
    FALLBACK_NAME,
  );

/** No cache effect: the screen saves the file (mutationConfig.onSuccess). */
export function useExportProducts({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(params: ProductListParams) => ReturnType<typeof exportProducts>>;
} = {}) {
  const catalogue = useCatalogueRef();
  return useMutation({
    ...mutationConfig,
    mutationFn: (params: ProductListParams) => exportProducts(catalogue, params),
  });
}

/** GET /products/stock-by-location.csv → the file, and the name the server gives it. */
const exportStockByLocation = (catalogue: CatalogueRef) =>
  apiDownload({ url: productsUrl(catalogue, '/stock-by-location.csv') }, 'stock-by-location.csv');

/** No cache effect: the screen saves the file (mutationConfig.onSuccess). */
export function useExportStockByLocation({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<() => ReturnType<typeof exportStockByLocation>>;
} = {}) {
  const catalogue = useCatalogueRef();
  return useMutation({ ...mutationConfig, mutationFn: () => exportStockByLocation(catalogue) });
}
