import { Link } from 'react-router';
import type { ProductListItem } from '@shared/schemas/products.js';
import { formatPrice } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { ProductActions } from './ProductActions.js';
import { SelectBox } from './SelectBox.js';
import { AvailabilityBadge, StockCount } from './StockBadges.js';
import { StockStepper } from './StockStepper.js';
import { TagChips } from './TagChips.js';

// On a phone Edit and Delete share a row with the stepper; from `sm` up they halve their own row.
const actionClasses =
  'flex items-center justify-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600 sm:flex-1 sm:rounded-none sm:py-3';

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
 * One product of the list. On a phone it is compact, the thumbnail beside the text, so that
 * several products fit on the first screen; from `sm` up it is a tile, the picture on top.
 * Long names wrap anywhere (even inside a word) and are clamped, so they never widen the card.
 */
export function ProductCard({
  product,
  priority = false,
  onDeleted,
  selected = false,
  onSelect,
}: ProductCardProps) {
  const detailsUrl = paths.products.details.getHref(product.id);
  return (
    <li
      className={`group relative grid grid-cols-[6rem_minmax(0,1fr)] overflow-hidden rounded-2xl bg-white shadow-sm ring-gray-200 transition-shadow hover:shadow-lg sm:flex sm:flex-col ${selected ? 'ring-2 ring-indigo-600' : 'ring-1'}`}
    >
      {onSelect && (
        <SelectBox
          label={`Select ${product.name}`}
          checked={selected}
          onSelect={onSelect}
          className="absolute top-2 left-2 z-10"
        />
      )}
      <Link
        to={detailsUrl}
        tabIndex={-1}
        aria-hidden="true"
        className="relative block min-h-24 bg-gray-100"
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
          className="absolute inset-0 size-full object-cover transition-transform duration-300 group-hover:scale-[1.02] sm:static sm:aspect-square sm:h-auto"
        />
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-1 px-3 py-2.5 sm:gap-2 sm:p-4">
        <div className="flex items-start justify-between gap-2">
          <h2 className="line-clamp-2 min-w-0 text-sm font-semibold wrap-anywhere text-gray-900 sm:line-clamp-3 sm:text-base">
            <Link
              to={detailsUrl}
              data-product-card-link=""
              className="hover:text-indigo-700 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              {product.name}
            </Link>
          </h2>
          <AvailabilityBadge stock={product.stock} />
        </div>
        <p className="line-clamp-2 text-sm wrap-anywhere text-gray-600">{product.description}</p>
        <TagChips tags={product.tags} />
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-2 gap-y-1 sm:pt-2">
          <p className="text-base font-bold text-gray-900 sm:text-lg">
            {formatPrice(product.price)}
          </p>
          <StockCount stock={product.stock} />
        </div>
      </div>
      {/* A phone: one row (stepper, Set, Edit, Delete), so that a card is no taller than before
          the stepper came; from `sm` up the stepper's row, then Edit | Delete. */}
      <div className="col-span-2 flex items-center gap-2 border-t border-gray-200 py-1 pr-1 pl-3 sm:block sm:p-0">
        <div className="min-w-0 sm:px-4 sm:py-3">
          <StockStepper product={product} />
        </div>
        <div className="ml-auto flex shrink-0 sm:ml-0 sm:divide-x sm:divide-gray-200 sm:border-t sm:border-gray-200">
          <ProductActions product={product} onDeleted={onDeleted} className={actionClasses} />
        </div>
      </div>
    </li>
  );
}
