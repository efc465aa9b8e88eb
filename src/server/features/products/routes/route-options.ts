import type { FastifyInstance } from 'fastify';
import type { CatalogueAction } from '../../../../shared/catalogue-roles.js';
import { rateLimit } from '../../../http/route-options.js';

/**
 * Every product route's config: the per-IP limit for ordinary requests, and what the route does
 * in the terms of the role rule (the catalogue scope refuses a role that may not).
 */
export function productRouteConfig(fastify: FastifyInstance, catalogueAction: CatalogueAction) {
  const { rateLimits } = fastify;
  return { config: { ...rateLimit(rateLimits, rateLimits.general), catalogueAction } };
}

/**
 * How every product route appears in the OpenAPI document (its token, rate limit and body errors
 * are documented from its config and scope: http/route-responses.ts, http/authenticate.ts).
 */
export const productDocs = { tags: ['products'] };
