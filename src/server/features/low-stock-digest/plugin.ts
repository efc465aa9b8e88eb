import fp from 'fastify-plugin';
import { LowStockDigests } from './digest.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The daily low-stock digest (features/low-stock-digest); `run()` is one pass of its job. */
    lowStockDigests: LowStockDigests;
  }
}

/**
 * The digest's job, on a timer on every instance (config.lowStockDigest): each pass queues the
 * digests due, and the (user, day) claims make sure one instance sends each. Unref'd, so it never
 * keeps a process alive, and stopped when the app closes.
 */
export const lowStockDigestPlugin = fp(
  (app, _options, done) => {
    const { hourUtc, intervalMs } = app.config.lowStockDigest;
    const digests = new LowStockDigests(app.db, app.outbox, app.clock, {
      hourUtc,
      publicUrl: app.config.publicUrl,
    });
    app.decorate('lowStockDigests', digests);
    let running: Promise<unknown> | undefined;
    const pass = () => {
      if (running) return;
      running = digests
        .run()
        .catch((error: unknown) => app.log.warn({ err: error }, 'the low-stock digest failed'))
        .finally(() => (running = undefined));
    };
    const timer = setInterval(pass, intervalMs);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
    done();
  },
  { name: 'low-stock-digest', dependencies: ['settings', 'database', 'outbox'] },
);
