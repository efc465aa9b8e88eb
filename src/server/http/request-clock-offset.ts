import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../lib/clock.js';
import { isLoopbackAddress } from '../lib/loopback.js';

/** Milliseconds after (or, negative, before) the server's now that a request happens. */
export const CLOCK_OFFSET_HEADER = 'x-test-clock-offset-ms';

/**
 * For the browser suite, which cannot move the server's clock: under NODE_ENV=test a request from
 * this machine's loopback may say when it happens relative to now, and everything it does reads
 * the shifted time, so a spec can sign up "a minute ago" instead of waiting a minute. Only
 * buildApp registers it, and only when the configuration's NODE_ENV is test.
 */
export function acceptRequestClockOffsets(app: FastifyInstance, clock: Clock): Clock {
  const offsets = new AsyncLocalStorage<number>();
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers[CLOCK_OFFSET_HEADER];
    const offset = typeof header === 'string' && /^-?\d{1,10}$/.test(header) ? Number(header) : 0;
    if (offset === 0 || !isLoopbackAddress(request.socket.remoteAddress)) return done();
    offsets.run(offset, done);
  });
  return { now: () => clock.now() + (offsets.getStore() ?? 0) };
}
