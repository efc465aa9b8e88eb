import { lazyScreen } from '../components/lazy-screen.js';

export default lazyScreen(
  () => import('@/features/catalogues/components/CatalogueSettings.js'),
  'CatalogueSettings',
);
