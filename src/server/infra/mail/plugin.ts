import fp from 'fastify-plugin';
import { Outbox } from './outbox.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The mail outbox and its worker (started by start.ts, stopped with the app). */
    outbox: Outbox;
  }
}

export const outboxPlugin = fp(
  (app, _options, done) => {
    const outbox = new Outbox(app.db, app.clock, app.config, app.log);
    app.decorate('outbox', outbox);
    app.addHook('onClose', async () => outbox.stop());
    done();
  },
  { name: 'outbox', dependencies: ['settings', 'database'] },
);
