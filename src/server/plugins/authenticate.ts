import type { FastifyInstance, FastifyRequest } from 'fastify';
import { M } from '../../shared/messages.js';
import { SessionLookup, type SessionUser } from '../accounts/sessions.js';
import { unauthorized } from '../lib/http-error.js';

declare module 'fastify' {
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    session: SessionUser | null;
  }
}

/** The signed-in user of a request that passed `authenticate`. */
export function currentSession(request: FastifyRequest): SessionUser {
  if (!request.session) throw unauthorized(M.unauthorized);
  return request.session;
}

// The scheme name is case-insensitive (RFC 7235); the token is ours, so its alphabet is exact.
const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/i;

/**
 * A preHandler for protected routes. Missing, malformed, expired and revoked tokens all give the
 * same 401: none of them reaches the database with anything but a well-formed token.
 */
export function registerAuthentication(app: FastifyInstance) {
  const sessions = new SessionLookup(app.deps.database, app.deps.clock);
  app.decorateRequest('session', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const session = match ? await sessions.find(match[1]!) : undefined;
    if (!session) throw unauthorized(M.unauthorized);
    request.session = session;
  });
}
