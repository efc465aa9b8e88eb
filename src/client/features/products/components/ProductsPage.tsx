import { useRef } from 'react';
import { Link } from 'react-router';
import { DocumentTitle } from '@/components/DocumentTitle.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { paths } from '@/lib/paths.js';
import { useMediaQuery } from '@/lib/use-media-query.js';
import { ExportButton } from './ExportButton.js';
import { TABLE_MEDIA_QUERY } from './lazy-table.js';
import { ProductResults } from './ProductResults.js';
import { useListUrl } from './use-list-url.js';

/**
 * The product list (/): search, sort, stock filter and view in the URL, pages loaded as the user
 * scrolls; the way in and out of the catalogue as CSV.
 */
export function ProductsPage() {
  const { params, view, onSearch, onSort, onStock, onView } = useListUrl();
  const wide = useMediaQuery(TABLE_MEDIA_QUERY);
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <div className="space-y-5 sm:space-y-8">
      {/* A phone: the title and 'Add product' side by side, the file actions under them; wider,
          all three actions to the right of the title. */}
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-3 sm:items-end">
        <div className="min-w-0 flex-1">
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
        <Link
          to={paths.products.create.getHref()}
          className={buttonClasses('primary', 'shrink-0 sm:order-last')}
        >
          <span aria-hidden="true">+</span> Add product
        </Link>
        <div className="flex w-full gap-2 sm:w-auto sm:gap-3">
          <Link to={paths.products.import.getHref()} className={buttonClasses('secondary')}>
            Import CSV
          </Link>
          <ExportButton params={params} />
        </div>
      </div>
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
