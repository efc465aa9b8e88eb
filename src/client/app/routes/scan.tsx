import { lazyScreen } from '../components/lazy-screen.js';

/** The scan screen's code (camera, barcode reader) loads only here, never with the list. */
export default lazyScreen(() => import('@/features/scan/components/ScanScreen.js'), 'ScanScreen');
