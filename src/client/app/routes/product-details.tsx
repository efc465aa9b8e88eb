import { lazy, Suspense } from 'react';
import type { ClientLoaderFunctionArgs } from 'react-router';
import { movementsQueryOptions } from '@/features/products/api/get-movements.js';
import { productQueryOptions } from '@/features/products/api/get-product.js';
import { preloadPicture, ProductDetails } from '@/features/products/components/ProductDetails.js';
import { ProductDetailsSkeleton } from '@/features/products/components/ProductDetailsSkeleton.js';
import { getToken } from '@/lib/auth/token.js';
import { queryClient } from '@/lib/query-client.js';
import type { ScreenHandle } from '../components/screen-placeholder.js';

/** The product and its stock history, asked for beside the current user (see routes/products). */
export function clientLoader({ params }: ClientLoaderFunctionArgs) {
  // Offline, what an earlier visit saved is restored instead (lib/query-persistence.ts): a request
  // that can only fail would leave an error where that data is shown.
  if (!getToken() || !navigator.onLine || !params.productId) return null;
  const product = productQueryOptions(params.catalogueId, params.productId);
  void queryClient.prefetchQuery(product).then(() => {
    const read = queryClient.getQueryData(product.queryKey);
    if (read) preloadPicture(read);
  });
  void queryClient.prefetchQuery(movementsQueryOptions(params.catalogueId, params.productId));
  return null;
}

export const handle: ScreenHandle = { placeholder: <ProductDetailsSkeleton /> };

export function HydrateFallback() {
  return <ProductDetailsSkeleton />;
}

/** The product's activity: its own chunk, asked for once the page has drawn, below everything. */
const ProductActivity = lazy(() =>
  import('@/features/activity/components/ProductActivity.js').then((m) => ({
    default: m.ProductActivity,
  })),
);

export default function ProductDetailsRoute() {
  return (
    <ProductDetails
      after={
        <Suspense fallback={null}>
          <ProductActivity />
        </Suspense>
      }
    />
  );
}
