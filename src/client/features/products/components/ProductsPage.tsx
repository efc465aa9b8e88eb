import { useCallback, useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { ProductSort } from '@shared/constants.js';
import { Button } from '@/components/ui/Button.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { TextLink } from '@/components/ui/TextLink.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { formatCount } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { listParamsOf, useProducts } from '../api/get-products.js';
import { CARD_LINK_SELECTOR, ProductCard } from './ProductCard.js';
import { ProductsToolbar } from './ProductsToolbar.js';
import { restoresScroll } from '@/lib/scroll-state.js';
import { rememberListPlace } from './list-place.js';
import { DocumentTitle } from '@/components/DocumentTitle.js';

/** The product list (/): search and sort in the URL, pages loaded as the user scrolls. */
export function ProductsPage() {
  const [params, setParams] = useSearchParams();
  const { q, sort } = listParamsOf(params);
  const heading = useRef<HTMLHeadingElement>(null);

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
    <div className="space-y-5 sm:space-y-8">
      <div className="flex items-start justify-between gap-4 sm:items-end">
        <div className="min-w-0">
          <DocumentTitle>Products</DocumentTitle>
          {/* Focusable from script: focus lands here when the last product is deleted. */}
          <h1
            ref={heading}
            tabIndex={-1}
            className="text-2xl font-bold tracking-tight text-gray-900 focus:outline-none sm:text-3xl"
          >
            Products
          </h1>
          <p className="mt-1 text-sm text-gray-600 sm:mt-2">
            A list of all the products in your inventory.
          </p>
        </div>
        <Link to={paths.products.create.getHref()} className={buttonClasses('primary', 'shrink-0')}>
          <span aria-hidden="true">+</span> Add product
        </Link>
      </div>
      <ProductResults q={q} sort={sort} onSearch={onSearch} onSort={onSort} heading={heading} />
    </div>
  );
}

interface ProductResultsProps {
  q: string;
  sort: ProductSort;
  onSearch: (q: string) => void;
  onSort: (sort: ProductSort) => void;
  heading: RefObject<HTMLHeadingElement | null>;
}

/** '17 products', '3 results for "lamp"'; '60+' while more pages are left to load. */
function countText(count: number, more: boolean, q: string) {
  const shown = `${formatCount(count)}${more ? '+' : ''}`;
  const one = count === 1 && !more;
  if (!q) return `${shown} ${one ? 'product' : 'products'}`;
  if (count === 0) return `No results for "${q}"`;
  return `${shown} ${one ? 'result' : 'results'} for "${q}"`;
}

function ProductResults({ q, sort, onSearch, onSort, heading }: ProductResultsProps) {
  const products = useProducts({ q, sort });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = products;
  const sentinel = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const ready = products.isSuccess;
  useListPlace(ready);

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

  const toolbar = <ProductsToolbar q={q} sort={sort} onSearch={onSearch} onSort={onSort} />;

  if (products.isError) {
    return (
      <div className="space-y-4 sm:space-y-6">
        {toolbar}
        <div
          role="alert"
          className="rounded-2xl bg-white px-6 py-12 text-center shadow-sm ring-1 ring-gray-200"
        >
          <p className="font-medium text-red-700">{getErrorMessage(products.error)}</p>
          <div className="mt-6 flex flex-wrap items-center justify-center gap-4">
            <Button
              variant="secondary"
              busy={products.isFetching}
              busyLabel="Retrying..."
              onClick={() => void products.refetch()}
            >
              Retry
            </Button>
            <TextLink to={paths.products.add.getHref()}>Add new product</TextLink>
          </div>
        </div>
      </div>
    );
  }

  const items = products.data.pages.flatMap((page) => page.products);
  // While a new search or sort loads, the previous results stay on screen (dimmed).
  const searching = products.isPlaceholderData;
  // An empty catalogue has nothing to search or sort: the empty state says what to do instead.
  const catalogueEmpty = !q && items.length === 0 && !searching;

  // After a delete, the focus moves to the product that took its place, else the one before,
  // else (the list is empty now) the page's heading: never lost on the removed button.
  const focusAfterDelete = (index: number) => {
    const links = list.current?.querySelectorAll<HTMLElement>(CARD_LINK_SELECTOR);
    const target = links?.[index] ?? links?.[index - 1] ?? heading.current;
    target?.focus();
  };

  return (
    <div className="space-y-4 sm:space-y-6">
      {!catalogueEmpty && toolbar}
      {/* The count, announced politely when a search or sort brings new results. */}
      <p role="status" aria-live="polite" className="text-sm text-gray-600 empty:hidden">
        {catalogueEmpty ? null : searching ? '\u00a0' : countText(items.length, hasNextPage, q)}
      </p>
      {items.length === 0 ? (
        q ? (
          <EmptyState title="No products found" text={`No products match "${q}".`}>
            <Button variant="secondary" onClick={() => onSearch('')}>
              Clear search
            </Button>
          </EmptyState>
        ) : (
          <EmptyState title="No products" text="Get started by creating a new product.">
            <Link to={paths.products.add.getHref()} className={buttonClasses('primary')}>
              <span aria-hidden="true">+</span> Add new product
            </Link>
          </EmptyState>
        )
      ) : (
        <section aria-label="Product list" aria-busy={searching || undefined}>
          <ul
            ref={list}
            className={`grid grid-cols-1 gap-3 transition-opacity sm:grid-cols-2 sm:gap-6 md:grid-cols-3 lg:grid-cols-4 2xl:grid-cols-5 ${searching ? 'opacity-60' : ''}`}
          >
            {items.map((product, index) => (
              <ProductCard
                key={product.id}
                product={product}
                priority={index === 0}
                onDeleted={() => focusAfterDelete(index)}
              />
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
      )}
    </div>
  );
}

/**
 * Remembers where the user is on the list (search, sort, scroll) for 'Back to Products', and when
 * such a link brought the user here, scrolls back to where they were once the list has rendered.
 */
function useListPlace(ready: boolean) {
  const location = useLocation();

  useEffect(() => {
    const save = () => {
      // Once the user has moved on, the list may stay mounted a moment (the next screen's chunk
      // is on its way) while the page shrinks under it: that scroll is not where they were.
      if (window.location.pathname !== location.pathname) return;
      rememberListPlace({ search: location.search, scrollY: window.scrollY });
    };
    save();
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(save);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, [location.pathname, location.search]);

  const restoredFor = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || restoredFor.current === location.key) return;
    restoredFor.current = location.key;
    if (!restoresScroll(location.state)) return;
    const { restoreScrollY } = location.state;
    // After every effect of this render (a layout that scrolls to the top on navigation runs its
    // effects after ours, being our parent), so that the restored scroll is the last word.
    const frame = requestAnimationFrame(() => window.scrollTo(0, restoreScrollY));
    return () => cancelAnimationFrame(frame);
  }, [ready, location.key, location.state]);
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
