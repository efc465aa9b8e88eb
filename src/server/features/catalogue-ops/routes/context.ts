import type { onRequestHookHandler } from 'fastify';
import type { ProductsContext } from '../../products/index.js';
import type { ImportSlots } from '../import-slots.js';

/**
 * What the catalogue route files share: the products' reads and presenters, the bulk limit, the
 * import slots. Their writes are the products' data-access functions, run by the write pipeline.
 */
export interface CatalogueContext extends Pick<ProductsContext, 'repository' | 'present'> {
  /** Removes the files of images no product refers to any more, after the commit. */
  removeImages(keys: Iterable<string>): Promise<void>;
  /** The one rate limit of import, export, labels and bulk delete together (route-options.ts). */
  bulkLimiter: onRequestHookHandler;
  /** Imports running at once: one per user, a few per process (import-slots.ts). */
  imports: ImportSlots;
  /** PostgreSQL's planner statistics, refreshed after a large import (planner-statistics.ts). */
  statistics: { refresh: (rows: number) => void };
}
