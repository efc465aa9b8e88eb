import { Link } from 'react-router';
import type { ProductListItem } from '@shared/schemas/products.js';
import { formatPrice } from '@/lib/format.js';
import { DeleteProductButton } from './DeleteProductButton.js';
import { AvailabilityBadge, StockCount } from './StockBadges.js';

const actionClasses =
  'flex flex-1 items-center justify-center gap-1.5 py-3 text-sm font-semibold focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600';

interface ProductCardProps {
  product: ProductListItem;
  /**
   * The list's first card: its picture is usually the page's largest paint, so it is asked for at
   * once and first, rather than lazily when layout finds it on screen.
   */
  priority?: boolean;
}

export function ProductCard({ product, priority = false }: ProductCardProps) {
  const detailsUrl = `/details/product/${product.id}`;
  return (
    <li className="group flex flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-gray-200 transition-shadow hover:shadow-lg">
      <Link to={detailsUrl} tabIndex={-1} aria-hidden="true" className="relative block bg-gray-100">
        <img
          src={product.thumbnail}
          alt={product.name}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
          width={400}
          height={400}
          className="aspect-square w-full object-cover transition-transform duration-300 group-hover:scale-[1.02]"
        />
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h2 className="text-base font-semibold text-gray-900">
            <Link
              to={detailsUrl}
              className="hover:text-indigo-700 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              {product.name}
            </Link>
          </h2>
          <AvailabilityBadge stock={product.stock} />
        </div>
        <p className="line-clamp-2 text-sm text-gray-600">{product.description}</p>
        <div className="mt-auto flex items-center justify-between gap-2 pt-2">
          <p className="text-lg font-bold text-gray-900">{formatPrice(product.price)}</p>
          <StockCount stock={product.stock} />
        </div>
      </div>
      <div className="flex divide-x divide-gray-200 border-t border-gray-200">
        <Link
          to={`/edit/product/${product.id}`}
          aria-label={`Edit ${product.name}`}
          className={`${actionClasses} text-gray-700 hover:bg-gray-50 hover:text-indigo-700`}
        >
          Edit
        </Link>
        <DeleteProductButton
          product={product}
          className={`${actionClasses} text-red-700 hover:bg-red-50`}
        />
      </div>
    </li>
  );
}
