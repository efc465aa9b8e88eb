import fp from 'fastify-plugin';
import { RENEW_EVERY_MS, UserLeases } from './user-leases.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Per-user counts that every instance sees (infra/leases). */
    userLeases: UserLeases;
  }
}

/** The leases, renewed by the runner while the process runs and ended when it closes. */
export const userLeasesPlugin = fp(
  (app, _options, done) => {
    const leases = new UserLeases({
      db: app.db,
      dialect: app.database.dialect,
      clock: app.clock,
      log: app.log,
    });
    app.decorate('userLeases', leases);
    app.runner.every({
      name: 'renewing user leases',
      everyMs: RENEW_EVERY_MS,
      run: () => leases.renew(),
    });
    // After the streams have ended (their releases come first), before the database closes.
    app.addHook('onClose', async () => leases.releaseAll());
    done();
  },
  { name: 'user-leases', dependencies: ['settings', 'database', 'runner'] },
);
