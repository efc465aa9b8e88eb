import type { FastifyInstance, RouteOptions } from 'fastify';
import { errorResponses, isRateLimited, type ErrorStatus } from './route-options.js';

/** Methods whose requests Fastify reads a body of (even where the route needs none). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** An API operation of ours: each declares an operationId (tests/server/http/route-schemas.test.ts). */
export const isOperation = (route: Pick<RouteOptions, 'schema'>) =>
  typeof (route.schema as { operationId?: unknown } | undefined)?.operationId === 'string';

/**
 * The error statuses a route can send for what it is, not what it does: 400, 408, 413, 415 if it
 * reads a body; 429 if rate limited (its own limit or a shared one); 500 (unexpected failure) and 503
 * (database unreachable, shutting down) always; 401 comes from the protected scope (authenticate.ts).
 * A route declares the rest itself with errorResponses (route-options.ts): 400 for invalid params
 * or query, 403, 404, 409.
 */
function derivedErrorStatuses(route: RouteOptions): ErrorStatus[] {
  const methods = [route.method].flat();
  return [
    ...(methods.some((method) => BODY_METHODS.has(method)) ? ([400, 408, 413, 415] as const) : []),
    ...(isRateLimited(route.config) ? [429 as const] : []),
    500,
    503,
  ];
}

/**
 * Adds the derived error statuses (above) to the response schemas of every operation as it is
 * registered, so that the route serializes those answers through the error shape and the OpenAPI
 * document declares them, without any route listing them. Register it before any route.
 */
export function registerRouteResponses(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!isOperation(route)) return;
    const schema = route.schema as { response?: Record<string, unknown> };
    schema.response = { ...errorResponses(...derivedErrorStatuses(route)), ...schema.response };
  });
}
