import { lazyScreen } from '../components/lazy-screen.js';

/** The activity log's code loads only here, never with the list. */
export default lazyScreen(
  () => import('@/features/activity/components/ActivityScreen.js'),
  'ActivityScreen',
);
