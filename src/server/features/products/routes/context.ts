import type { onRequestHookHandler } from 'fastify';
import type { ImportSlots } from '../../catalogue-ops/import-slots.js';
import type { ResponseCache } from '../response-cache.js';
import type { ProductRepository } from '../repository.js';
import type { ProductService } from '../service.js';
import type { presenters } from './presenters.js';

/** What the product route files share, built once by the products plugin. */
export interface ProductsContext {
  repository: ProductRepository;
  service: ProductService;
  present: ReturnType<typeof presenters>;
  /** Serialized answers of the reads, keyed by catalogue version (see response-cache.ts). */
  responses: ResponseCache;
  /** The one rate limit of import, export and bulk delete together (route-options.ts). */
  bulkLimiter: onRequestHookHandler;
  /** Imports running at once: one per user, a few per process (import-slots.ts). */
  imports: ImportSlots;
}
