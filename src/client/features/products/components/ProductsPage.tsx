import { lazy, Suspense, useRef, useState, type RefObject } from 'react';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { Link } from 'react-router';
import { tabTitle } from '@/lib/texts.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { paths } from '@/lib/paths.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import type { ProductListParams } from '../api/get-products.js';
import { useMediaQuery } from '@/lib/use-media-query.js';
import { CsvActions } from './CsvActions.js';
import { TABLE_MEDIA_QUERY } from './lazy-table.js';
import { ProductResults } from './ProductResults.js';
import { useListUrl } from './use-list-url.js';

/** The location filter: its code loads when asked for, not with the list. */
const LocationFilter = lazy(() => import('./LocationFilter.js'));

interface ProductsHeaderProps {
  params: ProductListParams;
  /** Shows every tag again, when the list is of one. */
  onTag?: (tag: undefined) => void;
  /** Shows the products of one location (and those under it), or of all. */
  onLocation?: (id: string | undefined) => void;
  heading?: RefObject<HTMLHeadingElement | null>;
}

/** The header's last element (see the `expect` link). */
const HEADER_READ = 'products-header-read';

/**
 * The list's title and subtitle, and what can be done with the catalogue beside them. The page
 * the build writes for the list shows it too (ProductsPlaceholder): it is the largest text of the
 * first screen, and it is there before any script has run.
 */
function ProductsHeader({ params, onTag, onLocation, heading }: ProductsHeaderProps) {
  const catalogue = useCatalogueRef();
  const may = useCatalogueCan();
  const [picking, setPicking] = useState(false);
  return (
    // The title and its actions on one row, the subtitle under them; from `sm` up the actions sit
    // to the right of both.
    <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 sm:items-end sm:gap-x-4">
      <title>{tabTitle('Products')}</title>
      {/* A browser paints what it has read of a page whenever its reading pauses: the header
          painted with a part of its buttons gave the title their room, then took it back. The
          first paint waits for the header's last element, so for all of it (Chromium waits until
          the element is there, not until its end is read). */}
      <link rel="expect" href={`#${HEADER_READ}`} blocking="render" />
      {/* Focusable from script: focus lands here when the last product is deleted. */}
      <h1
        ref={heading}
        tabIndex={-1}
        className="text-2xl font-bold tracking-tight text-gray-900 focus:outline-none sm:text-3xl"
      >
        Products
      </h1>
      <div className="row-span-1 flex gap-2 sm:row-span-2 sm:gap-3">
        <CsvActions params={params} />
        {/* On a phone the header's Scan is the way: the title keeps its room here. */}
        {may('adjustStock') && (
          <Link
            to={paths.scan.getHref(undefined, catalogue)}
            className={buttonClasses('secondary', 'max-sm:hidden')}
          >
            Scan
          </Link>
        )}
        {may('editProducts') && (
          <Link to={paths.products.create.getHref(catalogue)} className={buttonClasses('primary')}>
            <span aria-hidden="true">+</span> Add product
          </Link>
        )}
      </div>
      <p className="col-span-2 text-sm text-gray-600 sm:col-span-1 sm:mt-1">
        A list of all the products in your inventory.
        {params.tag && (
          <>
            {' '}
            Tagged <strong className="text-gray-900">{params.tag}</strong>{' '}
            <button
              type="button"
              onClick={() => onTag?.(undefined)}
              className="font-semibold text-indigo-700 underline hover:text-indigo-600"
            >
              Show every tag
            </button>
          </>
        )}
      </p>
      {/* In the page the build writes too: nothing moves when the list comes. On a phone the
          link would cost the first screen a row of products: a location's page lists what it
          holds there, and the filter shows once one is chosen. */}
      <div className={`col-span-2 text-sm sm:col-span-1 ${params.location ? '' : 'max-sm:hidden'}`}>
        {onLocation && (picking || params.location) ? (
          <Suspense>
            <LocationFilter value={params.location} onChange={onLocation} />
          </Suspense>
        ) : (
          <button
            type="button"
            onClick={() => setPicking(true)}
            className="font-semibold text-indigo-700 underline hover:text-indigo-600"
          >
            Filter by location
          </button>
        )}
      </div>
      <span id={HEADER_READ} hidden />
    </div>
  );
}

/**
 * The list before the user and the products are known: its header, and a spinner where the
 * products will be. The build writes it into the list's page.
 */
export function ProductsPlaceholder() {
  const { params } = useListUrl();
  return (
    <div className="space-y-3 sm:space-y-8">
      <ProductsHeader params={params} />
      <PageSpinner label="Loading products..." />
    </div>
  );
}

/**
 * The product list (/): search, sort, stock filter and view in the URL, pages loaded as the user
 * scrolls; the way in and out of the catalogue as CSV.
 */
export function ProductsPage() {
  const { params, view, onSearch, onSort, onStock, onTag, onLocation, onView } = useListUrl();
  const wide = useMediaQuery(TABLE_MEDIA_QUERY);
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <div className="space-y-3 sm:space-y-8">
      <ProductsHeader params={params} onTag={onTag} onLocation={onLocation} heading={heading} />
      <ProductResults
        params={params}
        view={view}
        wide={wide}
        onSearch={onSearch}
        onSort={onSort}
        onStock={onStock}
        onView={onView}
        heading={heading}
      />
    </div>
  );
}
