import type { ResponseCache } from '../response-cache.js';
import type { ProductRepository } from '../repository.js';
import type { ProductRestores } from '../restore.js';
import type { ProductService } from '../service.js';
import type { presenters } from './presenters.js';

/** What the product route files share, built once by the products plugin (plugin.ts). */
export interface ProductsContext {
  repository: ProductRepository;
  service: ProductService;
  /** Undoing a change to products, in the transaction of the undo (features/activity). */
  restores: ProductRestores;
  present: ReturnType<typeof presenters>;
  /** Serialized answers of the reads, keyed by catalogue version (see response-cache.ts). */
  responses: ResponseCache;
}
