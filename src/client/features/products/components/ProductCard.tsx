import { useId, useState } from 'react';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { Link } from 'react-router';
import type { ProductListItem } from '@shared/schemas/products.js';
import { formatPrice } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { PendingStockNote, useShownStock } from './common/PendingStock.js';
import { ProductActions } from './ProductActions.js';
import { SelectBox } from './SelectBox.js';
import { StockStatus } from './common/StockBadges.js';
import { StockStepper } from './common/StockStepper.js';
import { TagChips } from './TagChips.js';

// On a phone Edit and Delete are small buttons at the row's end; from `sm` up they halve the
// tile's last row.
const actionClasses =
  'flex items-center justify-center rounded-md px-2 py-1 text-xs font-semibold focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600 sm:flex-1 sm:gap-1.5 sm:rounded-none sm:py-3 sm:text-sm';

/** Each card's name link, where focus goes after a delete (see ProductsPage). */
export const CARD_LINK_SELECTOR = '[data-product-card-link]';

interface ProductCardProps {
  product: ProductListItem;
  /**
   * The list's first card: its picture is usually the page's largest paint, so it is asked for at
   * once and first, rather than lazily when layout finds it on screen.
   */
  priority?: boolean;
  /** After the user has seen 'Deleted!': the list moves the focus on. */
  onDeleted?: () => void;
  /** Whether the product is among those chosen for a bulk delete. */
  selected?: boolean;
  /** Chooses or unchooses it (`range`: with Shift, everything from the last one chosen). */
  onSelect?: ((range: boolean) => void) | undefined;
}

/**
 * One product of the list. On a phone it is one compact row (thumbnail; name, description, price
 * and stock; small Edit and Delete); its stepper opens under the row with one tap. From `sm` up it
 * is a tile, the picture on top, the stepper always shown. The description is clamped to two
 * lines at every width (the spec's card), in smaller type on a phone to keep the row short.
 * Long names wrap anywhere (even inside a word) and are clamped (two lines on a phone, so that
 * variants that differ at the end read apart), so they never widen the card.
 */
export function ProductCard({
  product: listed,
  priority = false,
  onDeleted,
  selected = false,
  onSelect,
}: ProductCardProps) {
  const { product, pending } = useShownStock(listed);
  const catalogue = useCatalogueRef();
  const detailsUrl = paths.products.details.getHref(product.id, catalogue);
  const [adjusting, setAdjusting] = useState(false);
  const stepperId = useId();
  return (
    <li
      className={`group relative grid grid-cols-[3.5rem_minmax(0,1fr)_auto_auto] items-center gap-x-1.5 overflow-hidden rounded-xl bg-white p-2 shadow-sm ring-gray-200 transition-shadow hover:shadow-lg sm:flex sm:flex-col sm:items-stretch sm:rounded-2xl sm:p-0 ${selected ? 'ring-2 ring-indigo-600' : 'ring-1'}`}
    >
      <div className="relative">
        {onSelect && (
          <SelectBox
            label={`Select ${product.name}`}
            checked={selected}
            onSelect={onSelect}
            className="absolute top-1 left-1 z-10 sm:top-2 sm:left-2"
          />
        )}
        <Link
          to={detailsUrl}
          tabIndex={-1}
          aria-hidden="true"
          className="block size-14 overflow-hidden rounded-lg bg-gray-100 sm:size-auto sm:rounded-none"
        >
          <img
            src={product.thumbnail}
            alt={product.name}
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : 'auto'}
            // The list's first picture is painted as soon as it arrives (it is the page's largest).
            decoding={priority ? 'sync' : 'async'}
            width={400}
            height={400}
            className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.02] sm:aspect-square sm:h-auto"
          />
        </Link>
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5 sm:gap-2 sm:p-4">
        <h2 className="line-clamp-2 min-w-0 text-sm font-semibold wrap-anywhere text-gray-900 sm:line-clamp-3 sm:text-base">
          <Link
            to={detailsUrl}
            data-product-card-link=""
            className="hover:text-indigo-700 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            {product.name}
          </Link>
        </h2>
        <p className="line-clamp-2 text-xs wrap-anywhere text-gray-600 sm:text-sm">
          {product.description}
        </p>
        {/* The row has no room for the tags on a phone: the product page shows them. */}
        <div className="max-sm:hidden">
          <TagChips tags={product.tags} />
        </div>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 sm:mt-auto sm:justify-between sm:pt-2">
          <p className="text-sm font-bold text-gray-900 tabular-nums sm:text-lg">
            {formatPrice(product.price)}
          </p>
          <StockStatus product={product} />
        </div>
        <PendingStockNote label={pending} />
      </div>
      {/* A phone only: opens the stepper under the row; a finger's width, so never the next row's. */}
      <button
        type="button"
        aria-expanded={adjusting}
        aria-controls={stepperId}
        aria-label={`Adjust stock of ${product.name}`}
        onClick={() => setAdjusting((open) => !open)}
        className={`grid h-11 w-10 place-items-center rounded-md text-lg font-semibold ring-1 ring-gray-300 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 sm:hidden ${adjusting ? 'bg-indigo-50 text-indigo-800' : 'text-gray-700'}`}
      >
        <span aria-hidden="true">±</span>
      </button>
      {/* Edit over Delete at a phone's row end; from `sm` up the tile's last row, halved. */}
      <div className="flex flex-col sm:order-last sm:flex-row sm:divide-x sm:divide-gray-200 sm:border-t sm:border-gray-200">
        <ProductActions product={product} onDeleted={onDeleted} className={actionClasses} />
      </div>
      {/* Under the row on a phone once opened; from `sm` up always, above Edit | Delete. */}
      <div
        id={stepperId}
        className={`col-span-full mt-2 border-t border-gray-200 pt-2 sm:mt-0 sm:block sm:px-4 sm:py-3 ${adjusting ? '' : 'max-sm:hidden'}`}
      >
        <StockStepper product={product} />
      </div>
    </li>
  );
}
