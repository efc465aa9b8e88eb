import type { FastifyInstance } from 'fastify';
import { rateLimit } from '../shared.js';

/** Every product route's config: the per-IP limit for ordinary requests (and, by default, a token). */
export function productRouteConfig(fastify: FastifyInstance) {
  const { rateLimits } = fastify;
  return { config: rateLimit(rateLimits, rateLimits.general) };
}

/** How every product route appears in the OpenAPI document. */
export const productDocs = { tags: ['products'], security: [{ bearer: [] }] };

/** Every product route needs a token, is rate limited and uses the database. */
export const PRODUCT_ERRORS = [401, 429, 503] as const;
