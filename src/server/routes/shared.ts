import { errorSchema } from '../../shared/schemas/common.js';
import type { RateLimits } from '../deps.js';

/** Route config for @fastify/rate-limit: `max` requests per IP per window (429 with Retry-After). */
export const rateLimit = (limits: RateLimits, max: number) => ({
  rateLimit: { max, timeWindow: limits.windowMs },
});

/** The error answers every account route may give, for the OpenAPI document. */
export const authResponses = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  409: errorSchema,
  429: errorSchema,
} as const;
