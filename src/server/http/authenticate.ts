import type {
  FastifyInstance,
  FastifyRequest,
  preParsingAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import { M } from '../../shared/messages.js';
import type { SessionUser } from '../features/accounts/index.js';
import { unauthorized } from '../lib/http-error.js';
import { errorResponses } from './route-options.js';
import { isOperation } from './route-responses.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Answers without a token: set on every route of the public scope (publicScope) and of the
     * plugins registerPublic adds. Never set by hand.
     */
    public?: boolean;
    /**
     * Added by a plugin we do not write (CORS preflight, the API docs, the client's files): it
     * declares no schemas of ours. Set by registerPublic, never by hand.
     */
    thirdParty?: boolean;
  }
  interface FastifyRequest {
    session: SessionUser | null;
  }
}

const markPublic = (route: RouteOptions, extra: { thirdParty?: true } = {}) => {
  route.config = { ...route.config, public: true, ...extra };
};

/**
 * The scope of the routes that answer without a token (health, images, the account routes before
 * login): each is declared public as it is added, for the OpenAPI document and the route walks.
 */
export function publicScope(scope: FastifyInstance) {
  scope.addHook('onRoute', (route) => markPublic(route));
}

/**
 * Registers a plugin whose routes we do not write (CORS preflight, the API docs, the client's
 * files) with every route it adds declared public and third-party (the route walks in the tests
 * tell ours from theirs by it). Those plugins decorate the instance they are registered on, so
 * they cannot be given a scope of their own to mark.
 */
export async function registerPublic(app: FastifyInstance, register: () => PromiseLike<unknown>) {
  let registering = true;
  app.addHook('onRoute', (route) => {
    if (registering) markPublic(route, { thirdParty: true });
  });
  try {
    await register();
  } finally {
    registering = false;
  }
}

/** The signed-in user of a request that passed authentication. */
export function currentSession(request: FastifyRequest): SessionUser {
  if (!request.session) throw unauthorized(M.unauthorized);
  return request.session;
}

// The scheme name is case-insensitive (RFC 7235); the token is ours, so its alphabet is exact.
const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/i;

/**
 * The scope of the routes that need a token: a hook of the scope refuses every request without a
 * valid one, so a route is protected by where it is registered and one that forgets to ask is
 * still protected. Every bad token gives the same 401; only a well-formed one reaches the
 * database. It runs at preParsing: after the per-IP rate limit (onRequest), so a flood of bad
 * tokens is limited, and before the body is read. Each operation's 401 is documented here too.
 */
export function protectedScope(scope: FastifyInstance) {
  const { sessions } = scope;
  scope.decorateRequest('session', null);
  const authenticate: preParsingAsyncHookHandler = async (request, _reply, payload) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const session = match ? await sessions.find(match[1]!, request.ip) : undefined;
    if (!session) throw unauthorized(M.unauthorized);
    request.session = session;
    return payload;
  };
  scope.addHook('preParsing', authenticate);
  scope.addHook('onRoute', (route) => {
    if (!isOperation(route)) return;
    const schema = route.schema as { response?: Record<string, unknown> };
    schema.response = { ...errorResponses(401), ...schema.response };
  });
}
