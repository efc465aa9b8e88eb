import { Link } from 'react-router';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import type { ProductSort } from '@shared/constants.js';
import { formatPrice } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { ProductActions } from './ProductActions.js';
import type { ProductRowsProps } from './ProductGrid.js';
import { SelectBox } from './SelectBox.js';
import { SortHeader } from './SortHeader.js';
import { PendingStockNote, useShownStocks } from './common/PendingStock.js';
import { StockStatus } from './common/StockBadges.js';
import { StockStepper } from './common/StockStepper.js';

interface ProductTableProps extends ProductRowsProps {
  sort: ProductSort;
  onSort: (sort: ProductSort) => void;
}

const cell = 'px-3 py-2 align-middle';
const rowAction =
  'rounded-md px-2 py-1 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/**
 * The list as a dense table (wide screens): picture, name, codes (SKU, barcode under it), price,
 * stock (its state and units), the stepper and the actions, a row per product. The stock and the
 * stepper have columns of their own, so that −/+ line up down the table whatever the stock says;
 * the header stays in view while the page scrolls. Name, price and stock sort the list (the
 * server's order, so that every page follows it), as the toolbar's 'Sort by' does.
 */
export function ProductTable({
  products,
  selected,
  onSelect,
  onDeleted,
  sort,
  onSort,
}: ProductTableProps) {
  const sorting = { sort, onSort };
  const shown = useShownStocks();
  const catalogue = useCatalogueRef();
  return (
    // No overflow clipping here: it would keep the header from sticking to the top of the page.
    <div className="rounded-2xl bg-white shadow-sm ring-1 ring-gray-200">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Products</caption>
        <thead className="sticky top-0 z-10 bg-gray-50 text-gray-700 shadow-[inset_0_-1px_0_var(--color-gray-200)]">
          <tr className="[&>th:first-child]:rounded-tl-2xl [&>th:last-child]:rounded-tr-2xl">
            <th scope="col" className={`${cell} w-12`}>
              <span className="sr-only">Selected</span>
            </th>
            <th scope="col" className={`${cell} w-16`}>
              <span className="sr-only">Picture</span>
            </th>
            <SortHeader label="Name" ascending="name" {...sorting} />
            <th scope="col" className={`${cell} font-semibold`}>
              SKU
            </th>
            <SortHeader label="Price" ascending="price-asc" descending="price-desc" {...sorting} />
            <SortHeader label="Stock" ascending="stock-asc" descending="stock-desc" {...sorting} />
            <th scope="col" className={`${cell} font-semibold`}>
              Adjust stock
            </th>
            <th scope="col" className={cell}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200">
          {products.map((listed, index) => {
            const { product, pending } = shown(listed);
            const isSelected = selected.has(product.id);
            return (
              <tr key={product.id} className={isSelected ? 'bg-indigo-50' : 'hover:bg-gray-50'}>
                <td className={cell}>
                  {onSelect && (
                    <SelectBox
                      label={`Select ${product.name}`}
                      checked={isSelected}
                      onSelect={(range) => onSelect(product.id, range)}
                      className="bg-transparent shadow-none"
                    />
                  )}
                </td>
                <td className={cell}>
                  <img
                    src={product.thumbnail}
                    alt=""
                    loading={index < 12 ? 'eager' : 'lazy'}
                    width={40}
                    height={40}
                    className="size-10 rounded-md bg-gray-100 object-cover"
                  />
                </td>
                <th scope="row" className={`${cell} max-w-72 font-semibold text-gray-900`}>
                  <Link
                    to={paths.products.details.getHref(product.id, catalogue)}
                    data-product-card-link=""
                    className="line-clamp-2 wrap-anywhere hover:text-indigo-700 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                  >
                    {product.name}
                  </Link>
                </th>
                <td className={`${cell} max-w-40 font-mono break-all text-gray-700`}>
                  {product.sku ?? ''}
                  {product.barcode && (
                    <span className="block text-xs text-gray-600">{product.barcode}</span>
                  )}
                </td>
                <td
                  className={`${cell} font-semibold whitespace-nowrap text-gray-900 tabular-nums`}
                >
                  {formatPrice(product.price)}
                </td>
                <td className={`${cell} whitespace-nowrap`}>
                  <StockStatus product={product} />
                  <PendingStockNote label={pending} />
                </td>
                <td className={cell}>
                  <StockStepper product={product} oneLine />
                </td>
                <td className={`${cell} whitespace-nowrap`}>
                  <ProductActions
                    product={product}
                    onDeleted={() => onDeleted(index)}
                    className={rowAction}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
