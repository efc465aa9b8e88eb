import { Link, useParams } from 'react-router';
import type { Product } from '@shared/schemas/products.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { Card } from '@/components/ui/Card.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { formatCount, formatPrice } from '@/lib/format.js';
import { useProduct } from '../api/get-product.js';
import { BackToProductsLink } from './BackToProductsLink.js';
import { isProductMissing, ProductLoadError, ProductMissing } from './ProductLoadError.js';
import { AvailabilityBadge, StockCount } from './StockBadges.js';
import { DocumentTitle } from '@/components/DocumentTitle.js';

/** The read-only product page. */
export function ProductDetails() {
  const { productId = '' } = useParams();
  const product = useProduct(productId);

  if (product.isPending) return <PageSpinner label="Loading the product..." />;
  if (product.isError && isProductMissing(product)) {
    return (
      <ProductMissing>
        <BackToProductsLink />
      </ProductMissing>
    );
  }
  if (product.isError) {
    return (
      <div className="space-y-4 text-center">
        <h1 className="sr-only">Product details</h1>
        <ProductLoadError query={product} />
        <BackToProductsLink />
      </div>
    );
  }
  return <ProductSheet product={product.data} />;
}

function ProductSheet({ product }: { product: Product }) {
  const available = product.stock > 0;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <Card className="overflow-hidden">
        <div className="grid md:grid-cols-2">
          <div className="bg-gray-100">
            <img
              src={product.image}
              alt={product.name}
              className="aspect-square size-full object-cover"
            />
          </div>
          <div className="flex min-w-0 flex-col gap-5 p-6 sm:p-8">
            <p className="text-xs text-gray-600">
              Product ID: <span className="font-mono break-all">{product.id}</span>
            </p>
            <div className="flex flex-wrap items-start justify-between gap-3">
              <DocumentTitle>{product.name}</DocumentTitle>
              {/* A long name wraps, even inside a word, rather than widen the page. */}
              <h1 className="min-w-0 text-2xl font-bold tracking-tight wrap-anywhere text-gray-900 sm:text-3xl">
                {product.name}
              </h1>
              <AvailabilityBadge stock={product.stock} />
            </div>
            <div className="flex flex-wrap items-center gap-4">
              <p className="text-3xl font-semibold text-gray-900">{formatPrice(product.price)}</p>
              <p className="text-sm font-medium text-gray-700">
                In Stock: {formatCount(product.stock)}
              </p>
            </div>
            <div>
              <h2 className="text-sm font-semibold text-gray-900">Description</h2>
              <p className="mt-2 text-base whitespace-pre-line wrap-anywhere text-gray-700">
                {product.description}
              </p>
            </div>
            <dl className="divide-y divide-gray-200 rounded-xl ring-1 ring-gray-200">
              <div className="flex items-center justify-between px-4 py-3 text-sm">
                <dt className="text-gray-600">Availability</dt>
                <dd className={`font-semibold ${available ? 'text-green-800' : 'text-red-700'}`}>
                  {available ? 'In Stock' : 'Out of Stock'}
                </dd>
              </div>
              <div className="flex items-center justify-between px-4 py-3 text-sm">
                <dt className="text-gray-600">Price</dt>
                <dd className="font-semibold text-gray-900">{formatPrice(product.price)}</dd>
              </div>
              <div className="flex items-center justify-between px-4 py-3 text-sm">
                <dt className="text-gray-600">Stock</dt>
                <dd>
                  <StockCount stock={product.stock} />
                </dd>
              </div>
            </dl>
            <div className="mt-auto flex flex-wrap gap-3 pt-2">
              <Link to={`/edit/product/${product.id}`} className={buttonClasses('primary')}>
                Edit Product
              </Link>
              <BackToProductsLink />
            </div>
          </div>
        </div>
      </Card>
    </div>
  );
}
