import { M } from '../../shared/messages.js';
import { errorSchema, validationErrorSchema } from '../../shared/schemas/common.js';
import type { CodeCheck } from '../accounts/codes.js';
import { HttpError } from '../lib/http-error.js';
import type { RateLimits } from '../rate-limits.js';

/** Route config for @fastify/rate-limit: `max` requests per IP per window (429 with Retry-After). */
export const rateLimit = (limits: RateLimits, max: number) => ({
  rateLimit: { max, timeWindow: limits.windowMs },
});

/** The error statuses a route may document; each has the API's one error shape. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 429 | 500 | 503;

const schemaFor = (status: ErrorStatus) => (status === 400 ? validationErrorSchema : errorSchema);

/**
 * The response schemas of error statuses: a 400 may list the failing fields
 * (ValidationError), every other error is `{message}` (Error).
 *
 * Which statuses a route can send follows from what it is and does. What every route of a kind can
 * send (a body read, a token needed, a rate limit, a failure, a shutdown) is added to each route by
 * plugins/route-responses.ts; a route declares only its own with this: 400 for invalid params or
 * query, 403 (login of an unconfirmed account), 404 (a resource can be missing), 409 (profile
 * e-mail taken). tests/server/http/route-schemas.test.ts holds every route to its set.
 */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((status) => [status, schemaFor(status)])) as Record<
    S,
    ReturnType<typeof schemaFor>
  >;
}

/** The answer to a code check that failed: 400, or 429 with Retry-After when a budget is spent. */
export function refuseUnlessOk(check: CodeCheck) {
  if (check.ok) return;
  if (check.reason === 'invalid') throw new HttpError(400, M.codeInvalid);
  throw new HttpError(429, M.tooManyCodeAttempts, { 'retry-after': String(check.retryAfter) });
}
