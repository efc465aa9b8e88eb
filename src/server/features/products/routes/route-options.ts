import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { bulkLimit } from '../../../http/rate-limits.js';
import { rateLimit } from '../../../http/route-options.js';

/** Every product route's config: the per-IP limit for ordinary requests (and, by default, a token). */
export function productRouteConfig(fastify: FastifyInstance) {
  const { rateLimits } = fastify;
  return { config: rateLimit(rateLimits, rateLimits.general) };
}

/**
 * The one per-IP budget of the costly catalogue operations (import, export, bulk delete; see
 * bulkLimit). @fastify/rate-limit counts each route on its own, so a client spreading over the
 * three would get three budgets: this limiter is made once and hooked into the three routes.
 */
export function bulkRateLimiter(fastify: FastifyInstance): onRequestHookHandler {
  const { rateLimits } = fastify;
  return fastify.rateLimit({ max: bulkLimit(rateLimits), timeWindow: rateLimits.windowMs });
}

/** The options of a costly catalogue route: the shared limiter (documented as a rate limit). */
export const bulkRouteOptions = (limiter: onRequestHookHandler) => ({
  config: { sharedRateLimit: true },
  onRequest: limiter,
});

/**
 * How every product route appears in the OpenAPI document (its token, rate limit and body errors
 * are documented from its config: plugins/route-responses.ts, openapi/document.ts).
 */
export const productDocs = { tags: ['products'] };
