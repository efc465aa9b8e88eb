import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Card } from '@/components/ui/Card.js';
import { LinkedAmounts } from '@/components/ui/LinkedAmounts.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { formatUnits } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { productsQueryOptions } from '../api/get-products.js';
import MoveSelection from './MoveSelection.js';

/** Products one move from a location's page takes at most (the first of them by name). */
const MOVE_FROM_PAGE_MAX = 100;

/**
 * A location's page, below its place in the tree: the products held in it and under it (by
 * name, a page at a time), and Move stock, which moves all or part of what it holds itself to
 * another location in one transfer.
 */
export function LocationHoldings() {
  const catalogue = useCatalogueRef();
  const { locationId = '' } = useParams();
  const mayMove = useCatalogueCan()('adjustStock');
  const held = useInfiniteQuery(
    productsQueryOptions(catalogue, {
      q: '',
      sort: 'name',
      stock: undefined,
      location: locationId,
    }),
  );
  const products = held.data?.pages.flatMap((page) => page.products) ?? [];
  const listHref = `${paths.products.list.getHref(catalogue)}?location=${encodeURIComponent(locationId)}`;
  return (
    <section aria-labelledby="held-heading" className="mx-auto mt-6 max-w-3xl min-w-0">
      <Card className="p-4 sm:p-6">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="held-heading" className="text-base font-semibold text-gray-900">
            What it holds
          </h2>
          {mayMove && products.length > 0 && (
            <div className="ml-auto">
              <MoveSelection
                products={products.slice(0, MOVE_FROM_PAGE_MAX)}
                from={locationId}
                label="Move stock"
                onMoved={() => void held.refetch()}
              />
            </div>
          )}
        </div>
        {held.isPending && <p className="mt-2 text-sm text-gray-600">Loading products…</p>}
        {held.isError && (
          <p className="mt-2 text-sm text-red-700">Could not read what it holds. Try again.</p>
        )}
        {held.isSuccess && products.length === 0 && (
          <p className="mt-2 text-sm text-gray-600">Nothing is here.</p>
        )}
        {products.length > 0 && (
          <LinkedAmounts
            label="What it holds"
            items={products}
            href={(product) => paths.products.details.getHref(product.id, catalogue)}
            amount={(product) => `${formatUnits(product.stock)} in all`}
          />
        )}
        <div className="mt-3 flex flex-wrap gap-4 text-sm">
          {held.hasNextPage && (
            <button
              type="button"
              className="font-semibold text-indigo-700 underline"
              onClick={() => void held.fetchNextPage()}
            >
              Show more
            </button>
          )}
          {products.length > 0 && (
            <Link to={listHref} className="font-semibold text-indigo-700 underline">
              See them in the list
            </Link>
          )}
        </div>
      </Card>
    </section>
  );
}
