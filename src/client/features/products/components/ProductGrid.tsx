import type { ProductListItem } from '@shared/schemas/products.js';
import { ProductCard } from './ProductCard.js';

export interface ProductRowsProps {
  products: ProductListItem[];
  selected: ReadonlySet<string>;
  /** Chooses products for labels or a bulk delete; none for a role that may do neither. */
  onSelect?: ((id: string, range: boolean) => void) | undefined;
  /** After a product's delete: the list moves the focus on from its place. */
  onDeleted: (index: number) => void;
}

/** The products as cards, 1 to 5 columns depending on the width; close rows on a phone. */
export function ProductGrid({ products, selected, onSelect, onDeleted }: ProductRowsProps) {
  return (
    <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 sm:gap-6 md:grid-cols-3 lg:grid-cols-4 2xl:grid-cols-5">
      {products.map((product, index) => (
        <ProductCard
          key={product.id}
          product={product}
          priority={index === 0}
          onDeleted={() => onDeleted(index)}
          selected={selected.has(product.id)}
          onSelect={onSelect && ((range) => onSelect(product.id, range))}
        />
      ))}
    </ul>
  );
}
