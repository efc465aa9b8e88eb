import fp from 'fastify-plugin';
import { Outbox } from './outbox.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The mail outbox, a queue of the background runner (stopped with the app). */
    outbox: Outbox;
  }
}

export const outboxPlugin = fp(
  (app, _options, done) => {
    const outbox = new Outbox(app.db, app.clock, app.config, app.log, app.runner);
    app.decorate('outbox', outbox);
    app.addHook('onClose', async () => outbox.stop());
    done();
  },
  { name: 'outbox', dependencies: ['settings', 'database', 'runner'] },
);
