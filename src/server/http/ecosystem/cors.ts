import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { registerPublic } from '../authenticate.js';

/** Cross-origin calls from CORS_ORIGINS; preflight requests never carry a token: its route is public. */
export async function registerCors(app: FastifyInstance, corsOrigins: readonly string[]) {
  await registerPublic(app, () =>
    app.register(cors, {
      // Same-origin needs nothing; requests without Origin (curl, servers) are always allowed.
      origin: (origin, callback) => callback(null, !origin || corsOrigins.includes(origin)),
      methods: ['GET', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      // Where the event stream stood when a read was answered: the app resumes its stream there.
      exposedHeaders: ['Live-Event-Id'],
      maxAge: 600,
    }),
  );
}
