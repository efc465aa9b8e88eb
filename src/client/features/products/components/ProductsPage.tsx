import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ProductSort } from '@shared/constants.js';
import { Button } from '@/components/ui/Button.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { TextLink } from '@/components/ui/TextLink.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { listParamsOf, useProducts } from '../api/get-products.js';
import { ProductCard } from './ProductCard.js';
import { ProductsToolbar } from './ProductsToolbar.js';
import { DocumentTitle } from '@/components/DocumentTitle.js';

/** The product list (/): search and sort in the URL, pages loaded as the user scrolls. */
export function ProductsPage() {
  const [params, setParams] = useSearchParams();
  const { q, sort } = listParamsOf(params);

  const setParam = useCallback(
    (key: 'q' | 'sort', value: string, fallback: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value === fallback) next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const onSearch = useCallback((value: string) => setParam('q', value, ''), [setParam]);
  const onSort = useCallback((value: ProductSort) => setParam('sort', value, 'newest'), [setParam]);

  return (
    <div className="space-y-8">
      <div className="sm:flex sm:items-end sm:justify-between">
        <div>
          <DocumentTitle>Products</DocumentTitle>
          <h1 className="text-3xl font-bold tracking-tight text-gray-900">Products</h1>
          <p className="mt-2 text-sm text-gray-600">
            A list of all the products in your inventory.
          </p>
        </div>
        <Link to="/new/product" className={buttonClasses('primary', 'mt-4 sm:mt-0')}>
          <span aria-hidden="true">+</span> Add product
        </Link>
      </div>
      <ProductsToolbar q={q} sort={sort} onSearch={onSearch} onSort={onSort} />
      <ProductResults q={q} sort={sort} onClearSearch={() => onSearch('')} />
    </div>
  );
}

interface ProductResultsProps {
  q: string;
  sort: ProductSort;
  onClearSearch: () => void;
}

function ProductResults({ q, sort, onClearSearch }: ProductResultsProps) {
  const products = useProducts({ q, sort });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = products;
  const sentinel = useRef<HTMLDivElement>(null);

  // Infinite scroll: load the next page as the end of the grid comes into view.
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) {
          void fetchNextPage();
        }
      },
      { rootMargin: '600px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (products.isPending) return <PageSpinner label="Loading products..." />;

  if (products.isError) {
    return (
      <div
        role="alert"
        className="rounded-2xl bg-white px-6 py-12 text-center shadow-sm ring-1 ring-gray-200"
      >
        <p className="font-medium text-red-700">{getErrorMessage(products.error)}</p>
        <p className="mt-4">
          <TextLink to="/add/product">Add new product</TextLink>
        </p>
      </div>
    );
  }

  const items = products.data.pages.flatMap((page) => page.products);

  if (items.length === 0) {
    return q ? (
      <EmptyState title="No products found" text={`No products match "${q}".`}>
        <Button variant="secondary" onClick={onClearSearch}>
          Clear search
        </Button>
      </EmptyState>
    ) : (
      <EmptyState title="No products" text="Get started by creating a new product.">
        <Link to="/add/product" className={buttonClasses('primary')}>
          <span aria-hidden="true">+</span> Add new product
        </Link>
      </EmptyState>
    );
  }

  return (
    <section aria-label="Product list">
      <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 md:grid-cols-3 lg:grid-cols-4 2xl:grid-cols-5">
        {items.map((product, index) => (
          <ProductCard key={product.id} product={product} priority={index === 0} />
        ))}
      </ul>
      <div ref={sentinel} className="mt-10 flex justify-center">
        {hasNextPage && (
          <Button
            variant="secondary"
            busy={isFetchingNextPage}
            busyLabel="Loading more..."
            onClick={() => void fetchNextPage()}
          >
            Load more
          </Button>
        )}
      </div>
    </section>
  );
}

interface EmptyStateProps {
  title: string;
  text: string;
  children: ReactNode;
}

function EmptyState({ title, text, children }: EmptyStateProps) {
  return (
    <div className="rounded-2xl border-2 border-dashed border-gray-300 bg-white px-6 py-16 text-center">
      <svg
        className="mx-auto size-12 text-gray-400"
        fill="none"
        viewBox="0 0 24 24"
        stroke="currentColor"
        aria-hidden="true"
      >
        <path
          strokeLinecap="round"
          strokeLinejoin="round"
          strokeWidth={1.5}
          d="m20.25 7.5-.625 10.632a2.25 2.25 0 0 1-2.247 2.118H6.622a2.25 2.25 0 0 1-2.247-2.118L3.75 7.5M10 11.25h4M3.375 7.5h17.25c.621 0 1.125-.504 1.125-1.125v-1.5c0-.621-.504-1.125-1.125-1.125H3.375c-.621 0-1.125.504-1.125 1.125v1.5c0 .621.504 1.125 1.125 1.125Z"
        />
      </svg>
      <h2 className="mt-4 text-base font-semibold text-gray-900">{title}</h2>
      <p className="mt-1 text-sm text-gray-600">{text}</p>
      <div className="mt-6">{children}</div>
    </div>
  );
}
