import { NotFound } from '../components/NotFound.js';

export { ScreenErrorBoundary as ErrorBoundary } from '../components/ScreenErrorBoundary.js';

export default NotFound;
