import { lazyScreen } from '../components/lazy-screen.js';

export default lazyScreen(
  () => import('@/features/products/components/EditProduct.js'),
  'EditProduct',
);
