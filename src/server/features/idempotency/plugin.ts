import fp from 'fastify-plugin';
import { IdempotencyStore } from './store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The answers of writes that carried an Idempotency-Key (features/idempotency). */
    idempotency: IdempotencyStore;
  }
}

/** Expired answers go this often; a lookup ignores (and deletes) an expired one meanwhile. */
const SWEEP_MS = 15 * 60_000;

/** The Idempotency-Key store, and the sweep of answers older than 24 hours on the runner. */
export const idempotencyPlugin = fp(
  (app, _options, done) => {
    const store = new IdempotencyStore(app.db);
    app.decorate('idempotency', store);
    app.runner.every({
      name: 'sweeping expired idempotency keys',
      everyMs: SWEEP_MS,
      run: () => store.sweep(app.clock.now()),
    });
    done();
  },
  { name: 'idempotency', dependencies: ['settings', 'database', 'runner'] },
);
