import { lazyScreen } from '../components/lazy-screen.js';

export default lazyScreen(
  () => import('../screens/catalogue-settings-screen.js'),
  'CatalogueSettingsScreen',
);
