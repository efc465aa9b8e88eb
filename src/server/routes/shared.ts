import { errorSchema } from '../../shared/schemas/common.js';
import type { RateLimits } from '../rate-limits.js';

/** Route config for @fastify/rate-limit: `max` requests per IP per window (429 with Retry-After). */
export const rateLimit = (limits: RateLimits, max: number) => ({
  rateLimit: { max, timeWindow: limits.windowMs },
});

/** The error statuses a route may document; each has the API's one error shape. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

/**
 * The OpenAPI answers for exactly the error statuses a route can send. Which ones it can send
 * follows from what the route does:
 * - 400, 413, 415: a POST, PATCH or DELETE reads a body (malformed JSON, over the limit, a type the
 *   API does not take), even a route that needs none; 400 also for invalid params or query;
 * - 401: the route needs a token (every route that is not public);
 * - 404: a resource can be missing; 429: the route is rate limited; 503: it uses the database;
 * - 403 (login of an unconfirmed account) and 409 (profile e-mail taken) belong to one route each.
 * tests/server/http/route-schemas.test.ts holds every route to its set.
 */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((status) => [status, errorSchema])) as Record<
    S,
    typeof errorSchema
  >;
}

/** What any request that carries a body can be refused for. */
export const BODY_ERRORS = [400, 413, 415] as const;
