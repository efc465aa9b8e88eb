import { lazy } from 'react';
import { cachedImport } from '@/lib/lazy-import.js';

/**
 * The list's table view is its own chunk: phones never show it, and most visits never ask for it.
 * The list's route fetches it as it opens when the URL asks for the table (app/routes/products.tsx).
 */
export const loadProductTable = cachedImport(() => import('./ProductTable.js'));

export const LazyProductTable = lazy(async () => ({
  default: (await loadProductTable()).ProductTable,
}));

/** The width from which the table can be chosen; below it the list is always cards. */
export const TABLE_MEDIA_QUERY = '(min-width: 1024px)';
