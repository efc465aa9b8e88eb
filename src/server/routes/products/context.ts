import type { FastifyInstance } from 'fastify';
import { errorSchema } from '../../../shared/schemas/common.js';
import type { ProductImages } from '../../images/product-images.js';
import { toListItem, toProduct } from '../../products/present.js';
import type { PageCache } from '../../products/page-cache.js';
import type { ListRow, ProductRepository, ProductRow } from '../../products/repository.js';
import type { ProductService } from '../../products/service.js';
import { rateLimit } from '../shared.js';

export const presenters = (images: ProductImages) => ({
  listItem: (row: ListRow) => toListItem(row, images.urls(row.image_key)),
  product: (row: ProductRow) => toProduct(row, images.urls(row.image_key)),
});

/** What the product route files share, built once by the products plugin. */
export interface ProductsContext {
  repository: ProductRepository;
  service: ProductService;
  present: ReturnType<typeof presenters>;
  /** Serialized list pages, keyed by catalogue version (see page-cache.ts). */
  pages: PageCache;
}

/** Every product route: a signed-in user, and the per-IP limit for ordinary requests. */
export function guarded(fastify: FastifyInstance) {
  const { rateLimits } = fastify.deps;
  return { config: rateLimit(rateLimits, rateLimits.general), preHandler: fastify.authenticate };
}

/** How every product route appears in the OpenAPI document. */
export const productDocs = { tags: ['products'], security: [{ bearer: [] }] };

/** The error answers of every product route. */
export const productErrors = {
  400: errorSchema,
  401: errorSchema,
  404: errorSchema,
  429: errorSchema,
} as const;

/** Uploads can also be refused for their size (413) or for not being an image (415). */
export const uploadErrors = { ...productErrors, 413: errorSchema, 415: errorSchema } as const;
