import { BackToProductsLink } from '@/features/products/components/BackToProductsLink.js';
import { ProductMissing } from '@/features/products/components/common/ProductLoadError.js';
import { ScreenError } from '../components/ScreenErrorBoundary.js';

/** A product's screens' `ErrorBoundary`: a product that is not there is "Product not found". */
export function ProductErrorBoundary() {
  return (
    <ScreenError
      notFound={
        <ProductMissing>
          <BackToProductsLink />
        </ProductMissing>
      }
    />
  );
}
