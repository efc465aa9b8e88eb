import { lazyScreen } from '../components/lazy-screen.js';

export default lazyScreen(
  () => import('../components/CatalogueSettingsScreen.js'),
  'CatalogueSettingsScreen',
);
