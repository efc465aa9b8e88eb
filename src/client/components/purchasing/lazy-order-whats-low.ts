import { lazy } from 'react';
import { cachedImport } from '@/lib/lazy-import.js';

/**
 * "Order what's low" with the purchasing code it stands on, loaded when the "To reorder" tab or
 * report first shows it: the list's first visit, on any other tab, does not pay for it.
 */
export const LazyOrderWhatsLowButton = lazy(async () => ({
  default: (await cachedImport(() => import('./OrderWhatsLowButton.js'))()).OrderWhatsLowButton,
}));
