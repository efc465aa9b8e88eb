import type { FastifyInstance } from 'fastify';
import { M } from '../../shared/messages.js';

/** How long requests in flight may take to finish once closing begins; then they are cut. */
export const DRAIN_MS = 7_000;
/** Seconds a client is told to wait before trying again (another instance, or this one back up). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Closing the app (on SIGTERM) without waiting on clients, since a keep-alive connection stays
 * open until its client hangs up. Once closing begins every answer says `Connection: close`,
 * connections that fall idle are closed, a request that still arrives gets a 503 in the API's
 * shape, and whatever is left after DRAIN_MS is cut, so the database closes and the process exits.
 */
export function registerGracefulClose(app: FastifyInstance) {
  let closing = false;
  let sweep: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;

  app.addHook('preClose', (done) => {
    closing = true;
    sweep = setInterval(() => app.server.closeIdleConnections(), 100).unref();
    deadline = setTimeout(() => {
      app.log.warn('requests still in flight when shutting down were cut off');
      app.server.closeAllConnections();
    }, DRAIN_MS).unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweep);
    clearTimeout(deadline);
    done();
  });

  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    void reply
      .code(503)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .send({ message: M.serviceUnavailable });
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
}
