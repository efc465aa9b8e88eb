import { productQueryOptions } from '@/features/products/api/get-product.js';
import { queryClient } from '@/lib/query/query-client.js';
import { lazyScreen } from '../components/lazy-screen.js';
import { cachedOrRead, loadScreenData } from '../layouts/signed-in/route-data.js';
import type { Route } from './+types/edit-product.js';

/** The product the form starts from, read before it renders; an unknown one is not found. */
export function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  return loadScreenData(request, () =>
    queryClient.query(cachedOrRead(productQueryOptions(params.catalogueId, params.productId))),
  );
}

export { ProductErrorBoundary as ErrorBoundary } from '../screens/product-error-boundary.js';

export default lazyScreen(
  () => import('@/features/products/components/EditProduct.js'),
  'EditProduct',
);
