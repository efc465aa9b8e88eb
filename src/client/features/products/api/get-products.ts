import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import {
  PRODUCT_SORTS,
  LIST_STOCK_FILTERS,
  type ProductSort,
  type StockFilter,
} from '@shared/constants.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import type { paths } from '@/lib/openapi.gen.js';
import { queryKeys } from '@/lib/query/query-client.js';

/**
 * GET /api/products as the server's OpenAPI document describes it (types generated from it by
 * `npm run openapi:types`): a document that stops matching what the app sends and reads here
 * fails the typecheck.
 */
type ListProducts = paths['/api/products']['get'];
type ProductPage = ListProducts['responses'][200]['content']['application/json'];
type ProductListQuery = NonNullable<ListProducts['parameters']['query']>;

/** 60 fills whole rows at every width of the grid (1 to 5 columns). */
const PRODUCTS_PAGE_SIZE = 60;

export interface ProductListParams {
  q: string;
  sort: ProductSort;
  /** `low` (1 to 10 units) or `out` (0); undefined: every product. */
  stock: StockFilter | undefined;
  /** Only the products with this tag (case ignored); undefined: every product. */
  tag?: string | undefined;
  /** Only the products held in this location or under it (its id); undefined: everywhere. */
  location?: string | undefined;
}

const isOneOf = <T extends string>(values: readonly T[], value: string | null): value is T =>
  (values as readonly (string | null)[]).includes(value);

/**
 * The list's search, sort and stock filter as the URL holds them (?q=&sort=&stock=), newest
 * first and every product by default.
 */
export function listParamsOf(search: URLSearchParams): ProductListParams {
  const sort = search.get('sort');
  const stock = search.get('stock');
  return {
    q: (search.get('q') ?? '').trim(),
    sort: isOneOf(PRODUCT_SORTS, sort) ? sort : 'newest',
    stock: isOneOf(LIST_STOCK_FILTERS, stock) ? stock : undefined,
    tag: search.get('tag')?.trim() || undefined,
    location: search.get('location')?.trim() || undefined,
  };
}

/** GET /products?q&sort&stock&limit&cursor → {products, nextCursor}. */
const getProducts = (
  catalogue: CatalogueRef,
  { q, sort, stock, tag, location, cursor }: ProductListParams & { cursor: string | undefined },
  signal?: AbortSignal,
): Promise<ProductPage> =>
  apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/products.js').then((m) => m.productListResponseSchema),
    {
      url: productsUrl(catalogue),
      params: {
        q: q || undefined,
        sort,
        stock,
        tag,
        location,
        limit: PRODUCTS_PAGE_SIZE,
        cursor,
      } satisfies ProductListQuery,
      signal,
    },
  );

/** The cached 'products', one entry per search, sort and filter, paged on nextCursor; retried once. */
export const productsQueryOptions = (catalogue: CatalogueRef, params: ProductListParams) =>
  infiniteQueryOptions({
    queryKey: queryKeys.productList(catalogue, params),
    queryFn: ({ pageParam, signal }) =>
      getProducts(catalogue, { ...params, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    retry: 1,
  });

/**
 * While a new search, sort or filter loads, the previous results stay (placeholder data): the search box
 * and the list are not swapped for a spinner at every keystroke.
 */
export function useProducts(params: ProductListParams) {
  const catalogue = useCatalogueRef();
  return useInfiniteQuery({
    ...productsQueryOptions(catalogue, params),
    placeholderData: keepPreviousData,
  });
}
