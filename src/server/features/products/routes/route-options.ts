import type { FastifyInstance } from 'fastify';
import { rateLimit } from '../../../http/route-options.js';

/** Every product route's config: the per-IP limit for ordinary requests. */
export function productRouteConfig(fastify: FastifyInstance) {
  const { rateLimits } = fastify;
  return { config: rateLimit(rateLimits, rateLimits.general) };
}

/**
 * How every product route appears in the OpenAPI document (its token, rate limit and body errors
 * are documented from its config and scope: http/route-responses.ts, http/authenticate.ts).
 */
export const productDocs = { tags: ['products'] };
