import type { FastifyContextConfig } from 'fastify';
import { errorSchema, validationErrorSchema } from '../../shared/schemas/common.js';
import type { RateLimits } from './rate-limits.js';

/** Route config for @fastify/rate-limit: `max` requests per IP per window (429 with Retry-After). */
export const rateLimit = (limits: RateLimits, max: number) => ({
  rateLimit: { max, timeWindow: limits.windowMs },
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Rate limited by a limiter that several routes share, which they hook in themselves. */
    sharedRateLimit?: boolean;
  }
}

/** Whether a route is rate limited: by its own `config.rateLimit`, or by a shared limiter. */
export const isRateLimited = (config: FastifyContextConfig | undefined) =>
  config?.rateLimit !== undefined || config?.sharedRateLimit === true;

/** The error statuses a route may document; each has the API's one error shape. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

const schemaFor = (status: ErrorStatus) => (status === 400 ? validationErrorSchema : errorSchema);

/**
 * The response schemas of a route's own error statuses: 400 for invalid params or query (it may
 * list the failing fields), 403, 404, 409; every other error is `{message}`. What every route of a
 * kind sends (body read, token, rate limit, failure, shutdown) http/route-responses.ts adds;
 * tests/server/http/route-schemas.test.ts holds every route to its set.
 */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((status) => [status, schemaFor(status)])) as Record<
    S,
    ReturnType<typeof schemaFor>
  >;
}
