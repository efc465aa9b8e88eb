import type { Product, ProductListItem } from '@shared/schemas/products.js';
import { lookupKeys } from '@shared/codes.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { getErrorStatus, isUnreachable } from '@/lib/api-error.js';
import { locationsKey, locationsQueryOptions } from '@/lib/locations/locations-query.js';
import { queryClient, queryKeys } from '@/lib/query/query-client.js';

/** A location a code names: where the scans that follow apply. */
export interface ScanLocation {
  id: string;
  path: string;
  code: string;
}

/** What a code names: a product, or a location (codes of the two never meet). */
export type Found = { product: ProductListItem } | { location: ScanLocation };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Every product the cache holds: its own entries and the list's loaded pages. */
function* cachedProducts(catalogue: CatalogueRef): Generator<ProductListItem> {
  for (const [, data] of queryClient.getQueriesData({
    queryKey: queryKeys.catalogueProducts(catalogue),
  })) {
    if (isRecord(data) && typeof data.id === 'string') yield data as Product;
  }
  for (const [, data] of queryClient.getQueriesData({ queryKey: queryKeys.products(catalogue) })) {
    if (!isRecord(data) || !Array.isArray(data.pages)) continue;
    for (const page of data.pages as { products?: ProductListItem[] }[]) yield* page.products ?? [];
  }
}

/** The cached product a code names, the way the server matches it (GTIN forms, SKU case). */
function cachedProductOfCode(catalogue: CatalogueRef, code: string): ProductListItem | undefined {
  const wanted = lookupKeys(code);
  for (const product of cachedProducts(catalogue)) {
    if (product.barcode !== null && lookupKeys(product.barcode).barcodeKey === wanted.barcodeKey)
      return product;
    if (product.sku !== null && lookupKeys(product.sku).skuKey === wanted.skuKey) return product;
  }
  return undefined;
}

/** The location a code names in the catalogue's tree as this device has it, if any. */
function locationIn(tree: readonly ScanLocation[] | undefined, code: string) {
  const wanted = code.trim().toLowerCase();
  return tree?.find((location) => location.code.toLowerCase() === wanted);
}

const lookupSchema = () =>
  Promise.all([
    import('@shared/schemas/products.js'),
    import('@shared/schemas/locations/locations.js'),
  ]).then(([products, locations]) =>
    products.productResponseSchema.or(locations.locationResponseSchema),
  );

/**
 * GET /products/lookup?code= → `{product}` or `{location}`, or null when nothing has the code. A
 * code the server does not know is looked for among the catalogue's locations too (read once).
 * Without a connection, a product or location already loaded on this device is found in the
 * cache, so a scan offline still changes stock or sets where (the change waits to be sent).
 */
export async function lookupCode(catalogue: CatalogueRef, code: string): Promise<Found | null> {
  try {
    const answer = await apiRequest(lookupSchema, {
      url: productsUrl(catalogue, '/lookup'),
      params: { code },
    });
    return 'location' in answer ? { location: answer.location } : { product: answer.product };
  } catch (error) {
    if (getErrorStatus(error) === 404) {
      // A bin added a moment ago counts: the tree is read again when ten seconds old.
      const tree = await queryClient.fetchQuery({
        ...locationsQueryOptions(catalogue),
        staleTime: 10_000,
      });
      const location = locationIn(tree, code);
      return location ? { location } : null;
    }
    if (getErrorStatus(error) !== undefined || !isUnreachable(error)) throw error;
    const location = locationIn(queryClient.getQueryData(locationsKey(catalogue)), code);
    if (location) return { location };
    const product = cachedProductOfCode(catalogue, code);
    if (product) return { product };
    throw error;
  }
}

/**
 * Where a product's stock is, read from the server (a product page's data), or as this device
 * last had it when offline; undefined when not known.
 */
export async function placesOf(catalogue: CatalogueRef, id: string) {
  try {
    const { product } = await apiRequest(
      () => import('@shared/schemas/products.js').then((m) => m.productResponseSchema),
      { url: productsUrl(catalogue, `/${encodeURIComponent(id)}`) },
    );
    queryClient.setQueryData(queryKeys.product(catalogue, id), product);
    return product.locations;
  } catch (error) {
    if (getErrorStatus(error) !== undefined || !isUnreachable(error)) throw error;
    return queryClient.getQueryData<Product>(queryKeys.product(catalogue, id))?.locations;
  }
}
