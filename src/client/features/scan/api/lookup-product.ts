import type { Product, ProductListItem } from '@shared/schemas/products.js';
import { lookupKeys } from '@shared/codes.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { getErrorStatus, isUnreachable } from '@/lib/api-error.js';
import { queryClient, queryKeys } from '@/lib/query/query-client.js';

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

/**
 * GET /products/lookup?code= → the product with that barcode or SKU, or null when none has it.
 * Without a connection, a product already loaded on this device is found in the cache, so a scan
 * offline still changes its stock (the change waits to be sent).
 */
export async function lookupProduct(
  catalogue: CatalogueRef,
  code: string,
): Promise<ProductListItem | null> {
  try {
    const { product } = await apiRequest(
      () => import('@shared/schemas/products.js').then((m) => m.productResponseSchema),
      { url: productsUrl(catalogue, '/lookup'), params: { code } },
    );
    return product;
  } catch (error) {
    if (getErrorStatus(error) === 404) return null;
    const cached =
      getErrorStatus(error) === undefined && isUnreachable(error)
        ? cachedProductOfCode(catalogue, code)
        : undefined;
    if (cached) return cached;
    throw error;
  }
}
