import { lazyScreen } from '../components/lazy-screen.js';

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default lazyScreen(
  () => import('@/features/products/components/ImportStockByLocation.js'),
  'ImportStockByLocation',
);
