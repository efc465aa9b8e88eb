import { lazy, Suspense, useRef, type RefObject } from 'react';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import type { ProductSort, StockFilter } from '@shared/constants.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { TextLink } from '@/components/ui/TextLink.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { formatCount } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { useDrawn } from '@/lib/use-drawn.js';
import { useProducts, type ProductListParams } from '../api/get-products.js';
import { useProductsSummary, useStockFilterCounts } from '../api/get-products-summary.js';
import { SelectAllBox } from './SelectAllBox.js';
import { LazyProductTable } from './lazy-table.js';
import { LoadMore } from './LoadMore.js';
import { NoProducts } from './NoProducts.js';
import { CARD_LINK_SELECTOR } from './ProductCard.js';
import { ProductGrid } from './ProductGrid.js';
import { RetryButton, type LoadQuery } from './common/ProductLoadError.js';
import { ProductsSummary } from './ProductsSummary.js';
import { ProductsToolbar } from './ProductsToolbar.js';
import { StockFilterTabs } from './StockFilterTabs.js';
import { LazyOrderWhatsLowButton } from '@/components/purchasing/lazy-order-whats-low.js';
import { useListPlace } from './use-list-place.js';
import { useSelection } from './use-selection.js';
import { ViewToggle, type ListView } from './ViewToggle.js';

/** What to do with chosen products (labels, moves, delete): its code loads with the first choice. */
const SelectionBar = lazy(() => import('./SelectionBar.js'));

interface ProductResultsProps {
  params: ProductListParams;
  /** The view asked for in the URL. */
  view: ListView;
  /** Whether the screen is wide enough for the table (below, cards always and no toggle). */
  wide: boolean;
  onSearch: (q: string) => void;
  onSort: (sort: ProductSort) => void;
  onStock: (stock: StockFilter | undefined) => void;
  onView: (view: ListView) => void;
  heading: RefObject<HTMLHeadingElement | null>;
}

/** The list could not be read: why, in the list's place (search and filters stay above). */
function ListLoadError({ query }: { query: LoadQuery }) {
  const catalogue = useCatalogueRef();
  return (
    <div
      role="alert"
      className="rounded-2xl bg-white px-6 py-12 text-center shadow-sm ring-1 ring-gray-200"
    >
      <p className="font-medium text-red-700">{getErrorMessage(query.error)}</p>
      <div className="mt-6 flex flex-wrap items-center justify-center gap-4">
        <RetryButton query={query} />
        <TextLink to={paths.products.add.getHref(catalogue)}>Add new product</TextLink>
      </div>
    </div>
  );
}

/**
 * '17 products', '3 results for "lamp"': the summary's exact count; without it (it could not be
 * read) the products loaded, '60+' while more pages are left to load.
 */
function countText(loaded: number, exact: number | undefined, more: boolean, q: string) {
  const count = exact ?? loaded;
  const plus = exact === undefined && more;
  const shown = `${formatCount(count)}${plus ? '+' : ''}`;
  const one = count === 1 && !plus;
  if (!q) return `${shown} ${one ? 'product' : 'products'}`;
  if (count === 0) return `No results for "${q}"`;
  return `${shown} ${one ? 'result' : 'results'} for "${q}"`;
}

/**
 * The list under its title: search, sort and stock filter; the summary of what they select; the
 * products as cards or (wide screens) a table, chosen for bulk actions; and the states of no
 * products, no results, and a failed load. The first paint waits for the list and its summary
 * together, so that nothing moves when the second arrives.
 */
export function ProductResults(props: ProductResultsProps) {
  const { params, view, wide, onSearch, onSort, onStock, onView, heading } = props;
  const { q, stock, tag, location } = params;
  const products = useProducts(params);
  const summary = useProductsSummary({ q, stock, tag, location });
  const filterCounts = useStockFilterCounts({ q, tag, location });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = products;
  const list = useRef<HTMLDivElement>(null);
  const selectAllSlot = useRef<HTMLDivElement>(null);
  const items = products.data?.pages.flatMap((page) => page.products) ?? [];
  const ids = items.map((product) => product.id);
  const selection = useSelection(ids, JSON.stringify([q, stock]));
  const may = useCatalogueCan();
  // The tabs' counts too: arriving later, they would widen the tabs under the user's eyes.
  const ready = !(products.isPending || summary.isPending || filterCounts.pending);
  // A page of cards is a large render: first drawn as a transition, in slices.
  const drawn = useDrawn(ready);
  useListPlace(drawn);
  if (!drawn) return <PageSpinner label="Loading products..." />;

  // Nothing of this search or filter could be read (a list already read stays on screen when
  // reading it again fails: only the change that failed says so).
  const unread = products.isError && products.data === undefined;

  // While a new search, sort or filter loads, the previous results stay on screen (dimmed).
  const searching = products.isPlaceholderData;
  // An empty catalogue has nothing to search or sort: the empty state says what to do instead.
  const catalogueEmpty = !q && !stock && items.length === 0 && !searching && !unread;
  const table = wide && view === 'table';

  // After a delete, the focus moves to the product that took its place, else the one before,
  // else (the list is empty now) the page's heading: never lost on the removed button.
  const focusAfterDelete = (index: number) => {
    const links = list.current?.querySelectorAll<HTMLElement>(CARD_LINK_SELECTOR);
    const target = links?.[index] ?? links?.[index - 1] ?? heading.current;
    target?.focus();
  };

  const selected = items.filter((product) => selection.selected.has(product.id));
  // The Delete button is gone with the products: the focus goes to 'Select all on page', or to
  // the heading when that is not shown (on a phone it hides again once nothing is chosen).
  const focusAfterBulkDelete = () => {
    const box = selectAllSlot.current?.querySelector('input');
    if (box && (typeof box.checkVisibility !== 'function' || box.checkVisibility())) box.focus();
    else heading.current?.focus();
  };
  // Chosen products are for labels or a bulk delete: a role that may do neither chooses none.
  const selectable = may('editProducts') || may('printLabels');
  const rows = {
    products: items,
    selected: selection.selected,
    onSelect: selectable ? selection.toggle : undefined,
    onDeleted: focusAfterDelete,
  };

  return (
    <div className="space-y-3 sm:space-y-6">
      {!catalogueEmpty && (
        <div className="space-y-3 sm:space-y-4">
          <ProductsToolbar q={q} sort={params.sort} onSearch={onSearch} onSort={onSort} />
          <div className="flex flex-wrap items-center justify-between gap-3">
            <StockFilterTabs value={stock} onChange={onStock} counts={filterCounts.counts} />
            {/* What is low, ordered from each product's preferred supplier in one go. */}
            {stock === 'reorder' && (
              <Suspense fallback={null}>
                <LazyOrderWhatsLowButton />
              </Suspense>
            )}
            {wide && <ViewToggle value={view} onChange={onView} />}
          </div>
        </div>
      )}
      {/* One line on a phone: the count, the summary, and once products are chosen what to do
          with them ('Select all on page' shows from the start from `sm` up). */}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 empty:hidden">
        {/* The count, announced politely when a search or sort brings new results. */}
        <p role="status" aria-live="polite" className="text-sm text-gray-600 empty:hidden">
          {catalogueEmpty || unread
            ? null
            : searching
              ? '\u00a0'
              : countText(items.length, summary.data?.count, hasNextPage, q)}
        </p>
        {!catalogueEmpty && (
          <ProductsSummary
            summary={summary.data}
            stale={summary.isPlaceholderData || searching}
            here={location !== undefined}
          />
        )}
        {items.length > 0 && selectable && (
          <div
            ref={selectAllSlot}
            className={`ml-auto ${selected.length > 0 ? '' : 'hidden sm:block'}`}
          >
            <SelectAllBox
              shown={items.length}
              count={selected.length}
              onSelectAll={selection.setAll}
            />
          </div>
        )}
      </div>
      {unread ? (
        <ListLoadError query={products} />
      ) : items.length === 0 ? (
        <NoProducts q={q} stock={stock} onSearch={onSearch} onStock={onStock} />
      ) : (
        <section aria-label="Product list" aria-busy={searching || undefined}>
          <div ref={list} className={`transition-opacity ${searching ? 'opacity-60' : ''}`}>
            {table ? (
              <Suspense fallback={<PageSpinner label="Loading the table..." />}>
                <LazyProductTable {...rows} sort={params.sort} onSort={onSort} />
              </Suspense>
            ) : (
              <ProductGrid {...rows} />
            )}
          </div>
          <LoadMore
            hasNextPage={hasNextPage}
            isFetchingNextPage={isFetchingNextPage}
            fetchNextPage={fetchNextPage}
          />
        </section>
      )}
      {selected.length > 0 && (
        <Suspense>
          <SelectionBar selected={selected} onDeleted={focusAfterBulkDelete} />
        </Suspense>
      )}
    </div>
  );
}
