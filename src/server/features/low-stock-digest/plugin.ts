import fp from 'fastify-plugin';
import { LowStockDigests } from './digest.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The daily low-stock digest (features/low-stock-digest); `run()` is one pass of its job. */
    lowStockDigests: LowStockDigests;
  }
}

/**
 * The digest's job, on the runner of every instance (config.lowStockDigest): each pass queues the
 * digests due, and the (user, day) claims make sure one instance sends each.
 */
export const lowStockDigestPlugin = fp(
  (app, _options, done) => {
    const { hourUtc, intervalMs } = app.config.lowStockDigest;
    const digests = new LowStockDigests(app.db, app.outbox, app.clock, {
      hourUtc,
      publicUrl: app.config.publicUrl,
    });
    app.decorate('lowStockDigests', digests);
    app.runner.every({ name: 'low-stock digest', everyMs: intervalMs, run: () => digests.run() });
    done();
  },
  { name: 'low-stock-digest', dependencies: ['settings', 'database', 'outbox', 'runner'] },
);
