import type { FastifyInstance, FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import { M } from '../../shared/messages.js';
import { SessionLookup, type SessionUser } from '../accounts/sessions.js';
import { unauthorized } from '../lib/http-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers without a token. Every other route is refused without one (see below). */
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

/** Route `config` of a route that needs no token: health, images, the account routes before login. */
export const publicRoute = { public: true } as const;

/**
 * Registers a plugin whose routes we do not write (CORS preflight, the API docs, the client's
 * files) with every route it adds declared public and third-party (the route walks in the tests
 * tell ours from theirs by it). Those plugins decorate the instance they are
 * registered on, so they cannot be given a scope of their own to mark.
 */
export async function registerPublic(app: FastifyInstance, register: () => PromiseLike<unknown>) {
  let registering = true;
  app.addHook('onRoute', (route) => {
    if (registering) route.config = { ...route.config, public: true, thirdParty: true };
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
 * Protected by default: every route from here on gets one authentication step that lets through
 * only routes declared public (looked up per request) and refuses the rest without a valid token,
 * so a route that forgets to ask is still protected. Every bad token gives the same 401; only a
 * well-formed one reaches the database. It runs at preParsing: after the per-IP rate limit, so a
 * flood of bad tokens is limited, and before the body is read.
 */
export function registerAuthentication(app: FastifyInstance) {
  const sessions = new SessionLookup(app.database, app.clock);
  app.decorateRequest('session', null);
  app.addHook('onRoute', (route) => {
    // Read from the route's own options when a request comes: plugins registered later (and
    // registerPublic) may still change its config, and Fastify's request.routeOptions would build
    // a new object on every request.
    const authenticate: preParsingAsyncHookHandler = async (request, _reply, payload) => {
      if (route.config?.public) return payload;
      const match = BEARER.exec(request.headers.authorization ?? '');
      const session = match ? await sessions.find(match[1]!) : undefined;
      if (!session) throw unauthorized(M.unauthorized);
      request.session = session;
      return payload;
    };
    route.preParsing = [...[route.preParsing ?? []].flat(), authenticate];
  });
}
