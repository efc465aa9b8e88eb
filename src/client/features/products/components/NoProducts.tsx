import { Link } from 'react-router';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import type { StockFilter } from '@shared/constants.js';
import { Button } from '@/components/ui/Button.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { paths } from '@/lib/paths.js';
import { EmptyState } from './EmptyState.js';

const FILTER_NAMES: Record<StockFilter, string> = {
  low: 'low on stock',
  out: 'out of stock',
  reorder: 'to reorder',
};

interface NoProductsProps {
  q: string;
  stock: StockFilter | undefined;
  onSearch: (q: string) => void;
  onStock: (stock: StockFilter | undefined) => void;
}

/** No products at all, or none that the search or filter selects: different states. */
export function NoProducts({ q, stock, onSearch, onStock }: NoProductsProps) {
  const catalogue = useCatalogueRef();
  if (q) {
    return (
      <EmptyState
        title="No products found"
        text={
          stock ? `No products ${FILTER_NAMES[stock]} match "${q}".` : `No products match "${q}".`
        }
      >
        <Button variant="secondary" onClick={() => onSearch('')}>
          Clear search
        </Button>
      </EmptyState>
    );
  }
  if (stock) {
    return (
      <EmptyState title="No products found" text={`No products are ${FILTER_NAMES[stock]}.`}>
        <Button variant="secondary" onClick={() => onStock(undefined)}>
          Show all products
        </Button>
      </EmptyState>
    );
  }
  return (
    <EmptyState title="No products" text="Get started by creating a new product.">
      <Link to={paths.products.add.getHref(catalogue)} className={buttonClasses('primary')}>
        <span aria-hidden="true">+</span> Add new product
      </Link>
    </EmptyState>
  );
}
