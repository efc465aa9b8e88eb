import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { PRODUCT_SORTS, type ProductSort } from '@shared/constants.js';
import { apiRequest } from '@/lib/api-client.js';
import type { paths } from '@/lib/openapi.gen.js';
import { queryKeys } from '@/lib/query-client.js';

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
}

const isSort = (value: string | null): value is ProductSort =>
  (PRODUCT_SORTS as readonly (string | null)[]).includes(value);

/** The list's search and sort as the URL holds them (?q=&sort=), newest first by default. */
export function listParamsOf(search: URLSearchParams): ProductListParams {
  const sort = search.get('sort');
  return { q: (search.get('q') ?? '').trim(), sort: isSort(sort) ? sort : 'newest' };
}

/** GET /products?q&sort&limit&cursor → {products, nextCursor}. */
const getProducts = (
  { q, sort, cursor }: ProductListParams & { cursor: string | undefined },
  signal?: AbortSignal,
): Promise<ProductPage> =>
  apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/products.js').then((m) => m.productListResponseSchema),
    {
      url: '/products',
      params: {
        q: q || undefined,
        sort,
        limit: PRODUCTS_PAGE_SIZE,
        cursor,
      } satisfies ProductListQuery,
      signal,
    },
  );

/** The cached 'products', one entry per search and sort, paged on nextCursor; retried once. */
export const productsQueryOptions = (params: ProductListParams) =>
  infiniteQueryOptions({
    queryKey: [...queryKeys.products, params],
    queryFn: ({ pageParam, signal }) => getProducts({ ...params, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    retry: 1,
  });

/**
 * While a new search or sort loads, the previous results stay (placeholder data): the search box
 * and the list are not swapped for a spinner at every keystroke.
 */
export const useProducts = (params: ProductListParams) =>
  useInfiniteQuery({ ...productsQueryOptions(params), placeholderData: keepPreviousData });
