import type { FastifyInstance } from 'fastify';
import { bulkLimit } from '../../rate-limits.js';
import { rateLimit } from '../shared.js';

/** Every product route's config: the per-IP limit for ordinary requests (and, by default, a token). */
export function productRouteConfig(fastify: FastifyInstance) {
  const { rateLimits } = fastify;
  return { config: rateLimit(rateLimits, rateLimits.general) };
}

/** The config of the costly catalogue operations: import, export, bulk delete (see bulkLimit). */
export function bulkRouteConfig(fastify: FastifyInstance) {
  const { rateLimits } = fastify;
  return { config: rateLimit(rateLimits, bulkLimit(rateLimits)) };
}

/** How every product route appears in the OpenAPI document. */
export const productDocs = { tags: ['products'], security: [{ bearer: [] }] };

/** Every product route needs a token, is rate limited and uses the database. */
export const PRODUCT_ERRORS = [401, 429, 503] as const;
