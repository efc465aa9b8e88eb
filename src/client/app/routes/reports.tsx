import { lazyScreen } from '../components/lazy-screen.js';

export default lazyScreen(
  () => import('@/features/reports/components/ReportsScreen.js'),
  'ReportsScreen',
);
