import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { registerPublic } from '../authenticate.js';

/**
 * The request headers a frontend hosted elsewhere sends: the token and JSON body, the key that
 * makes a write safe to repeat, the screen a change came from (the activity log), and where a
 * resumed event stream left off.
 */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Stockroom-Source',
  'Last-Event-ID',
];

/**
 * The answer headers beyond the CORS-safelisted ones that such a frontend reads: where the event
 * stream stood when a read was answered (the app resumes its stream there), a repeated write's
 * stored answer, how long to wait when limited or unavailable, a download's file name, and the
 * rate-limit budget.
 */
const EXPOSED_HEADERS = [
  'Live-Event-Id',
  'Idempotent-Replayed',
  'Retry-After',
  'Content-Disposition',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

/** Cross-origin calls from CORS_ORIGINS; preflight requests never carry a token: its route is public. */
export async function registerCors(app: FastifyInstance, corsOrigins: readonly string[]) {
  await registerPublic(app, () =>
    app.register(cors, {
      // Same-origin needs nothing; requests without Origin (curl, servers) are always allowed.
      origin: (origin, callback) => callback(null, !origin || corsOrigins.includes(origin)),
      // Every method a route takes (PUT replaces a product's suppliers).
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    }),
  );
}
