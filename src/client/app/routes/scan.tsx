import { lazyScreen } from '../components/lazy-screen.js';

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

/** The scan screen's code (camera, barcode reader) loads only here, never with the list. */
export default lazyScreen(() => import('@/features/scan/components/ScanScreen.js'), 'ScanScreen');
