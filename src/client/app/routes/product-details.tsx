import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { useParams } from 'react-router';
import { movementsQueryOptions } from '@/features/products/api/get-movements.js';
import { productQueryOptions } from '@/features/products/api/get-product.js';
import { preloadPicture, ProductDetails } from '@/features/products/components/ProductDetails.js';
import { ProductDetailsSkeleton } from '@/features/products/components/ProductDetailsSkeleton.js';
import { isUnreachable } from '@/lib/api-error.js';
import { seedFromList } from '@/lib/query/product-cache.js';
import { queryClient } from '@/lib/query/query-client.js';
import { LaterPart } from '../components/LaterPart.js';
import { lazyScreen } from '../components/lazy-screen.js';
import type { ScreenHandle } from '../components/screen-placeholder.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/product-details.js';

/**
 * The product, read before the screen renders (beside the current user), its picture asked for
 * as soon as it is known; its stock history meanwhile. An unknown product is "Product not found"
 * (the error boundary).
 */
export function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  return loadScreenData(request, async () => {
    if (navigator.onLine) {
      void queryClient.prefetchQuery(movementsQueryOptions(params.catalogueId, params.productId));
    }
    const { catalogueId, productId } = params;
    const product = await queryClient
      .query(cachedOrRead(productQueryOptions(catalogueId, productId)))
      .catch((error: unknown) => {
        // Offline, a product the list showed opens with what the list knows of it.
        const listed = isUnreachable(error)
          ? seedFromList(queryClient, catalogueId, productId)
          : undefined;
        if (!listed) throw error;
        return listed;
      });
    preloadPicture(product);
  });
}

export const handle: ScreenHandle = { placeholder: <ProductDetailsSkeleton /> };

export { ProductErrorBoundary as ErrorBoundary } from '../screens/product-error-boundary.js';

/** The product's activity: its own chunk, asked for once the page has drawn, below everything. */
const ProductActivity = lazyScreen(
  () => import('@/features/activity/components/ProductActivity.js'),
  'ProductActivity',
);

/** Whom the product is bought from: its own chunk too, above the activity. */
const ProductSuppliers = lazyScreen(
  () => import('@/features/purchasing/components/ProductSuppliers.js'),
  'ProductSuppliers',
);

/** The product's suppliers, from the product the page shows (the products' cache). */
function Suppliers() {
  const { catalogueId, productId = '' } = useParams();
  const product = useQuery(productQueryOptions(catalogueId, productId)).data;
  return product ? <ProductSuppliers product={product} /> : null;
}

export default function ProductDetailsRoute() {
  return (
    <ProductDetails
      after={
        // Offline, a part whose code never came is left out; the product shows all the same.
        <Suspense fallback={null}>
          <LaterPart>
            <Suppliers />
          </LaterPart>
          <LaterPart>
            <ProductActivity />
          </LaterPart>
        </Suspense>
      }
    />
  );
}
