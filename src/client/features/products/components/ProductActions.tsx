import { Link } from 'react-router';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import type { ProductListItem } from '@shared/schemas/products.js';
import { paths } from '@/lib/paths.js';
import { DeleteProductButton } from './DeleteProductButton.js';

interface ProductActionsProps {
  product: Pick<ProductListItem, 'id' | 'name'>;
  onDeleted?: (() => void) | undefined;
  /** Each action's shape; the actions add their colours. */
  className: string;
}

/** A listed product's Edit link and Delete button, named with the product for screen readers. */
export function ProductActions({ product, onDeleted, className }: ProductActionsProps) {
  const catalogue = useCatalogueRef();
  const may = useCatalogueCan();
  if (!may('editProducts')) return null;
  return (
    <>
      <Link
        to={paths.products.edit.getHref(product.id, catalogue)}
        aria-label={`Edit ${product.name}`}
        className={`${className} text-gray-700 hover:bg-gray-100 hover:text-indigo-700`}
      >
        Edit
      </Link>
      <DeleteProductButton
        product={product}
        onDeleted={onDeleted}
        className={`${className} text-red-700 hover:bg-red-50`}
      />
    </>
  );
}
