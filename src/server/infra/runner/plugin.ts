import fp from 'fastify-plugin';
import { Runner } from './runner.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The background runner: queues and interval jobs, registered by the features' plugins. */
    runner: Runner;
  }
}

export interface RunnerPluginOptions {
  /** Start the runner once the app is ready (the server entry does; tests when they test it). */
  start: boolean;
}

/** The runner, started when the app is ready if asked, and stopped when it closes. */
export const runnerPlugin = fp<RunnerPluginOptions>(
  (app, options, done) => {
    const runner = new Runner({
      db: app.db as never,
      dialect: app.database.dialect,
      clock: app.clock,
      log: app.log,
    });
    app.decorate('runner', runner);
    if (options.start) app.addHook('onReady', (ready) => (runner.start(), ready()));
    app.addHook('onClose', async () => runner.stop());
    done();
  },
  { name: 'runner', dependencies: ['settings', 'database'] },
);
