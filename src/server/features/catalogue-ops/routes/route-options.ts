import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { CatalogueAction } from '../../../../shared/catalogue-roles.js';
import { costlyTurn } from '../../../http/costly-work.js';
import { bulkLimit } from '../../../http/rate-limits.js';

/**
 * The one per-IP budget of the costly catalogue operations (import, export, labels, bulk delete;
 * see bulkLimit). @fastify/rate-limit counts each route on its own, so a client spreading over
 * them would get a budget each: this limiter is made once and hooked into every one.
 */
export function bulkRateLimiter(fastify: FastifyInstance): onRequestHookHandler {
  const { rateLimits } = fastify;
  return fastify.rateLimit({ max: bulkLimit(rateLimits), timeWindow: rateLimits.windowMs });
}

/**
 * The options of a costly catalogue route: the shared limiter (documented as a rate limit), and
 * what the route does in the terms of the role rule.
 */
export const bulkRouteOptions = (
  limiter: onRequestHookHandler,
  catalogueAction: CatalogueAction,
) => ({
  config: { sharedRateLimit: true, catalogueAction },
  onRequest: limiter,
});

/** The same, for work that costs seconds of CPU (labels, exports): it waits for a turn too. */
export const costlyRouteOptions = (
  limiter: onRequestHookHandler,
  catalogueAction: CatalogueAction,
) => ({ ...bulkRouteOptions(limiter, catalogueAction), preHandler: costlyTurn });
