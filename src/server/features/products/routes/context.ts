import type { ProductImages } from '../product-images.js';
import type { ProductRepository } from '../repository.js';
import type { ResponseCache } from '../response-cache.js';
import type { presenters } from './presenters.js';

/** What the product route files share, built once by the products plugin (plugin.ts). */
export interface ProductsContext {
  /** The reads; writes go through the write pipeline (features/writes). */
  repository: ProductRepository;
  /** Pictures' files: stored before a write, removed once nothing refers to them. */
  images: ProductImages;
  present: ReturnType<typeof presenters>;
  /** Serialized answers of the reads, keyed by catalogue version (see response-cache.ts). */
  responses: ResponseCache;
}
