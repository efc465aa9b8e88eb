import type { FastifyInstance } from 'fastify';
import { rateLimit } from '../shared.js';

/** Every product route's config: the per-IP limit for ordinary requests (and, by default, a token). */
export function productRouteConfig(fastify: FastifyInstance) {
  const { rateLimits } = fastify;
  return { config: rateLimit(rateLimits, rateLimits.general) };
}

/**
 * How every product route appears in the OpenAPI document (its token, rate limit and body errors
 * are documented from its config: plugins/route-responses.ts, openapi/document.ts).
 */
export const productDocs = { tags: ['products'] };
