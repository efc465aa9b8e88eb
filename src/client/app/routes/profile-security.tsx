import { lazyScreen } from '../components/lazy-screen.js';

export default lazyScreen(
  () => import('@/features/profile/components/SecurityScreen.js'),
  'SecurityScreen',
);
