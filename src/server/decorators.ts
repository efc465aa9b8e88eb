import fp from 'fastify-plugin';
import type { Config } from './config.js';
import type { RateLimits } from './http/rate-limits.js';
import type { Clock } from './lib/clock.js';

/**
 * What the app is built with, each under its own name on the instance (`app.config`, `app.db` …):
 * no module-level singletons, and a plugin takes by name what it uses. The infrastructure's own
 * decorators (database, images, outbox) come from their plugins in infra/.
 */
declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    clock: Clock;
    rateLimits: RateLimits;
  }
}

export interface Settings {
  config: Config;
  clock: Clock;
  rateLimits: RateLimits;
}

/** The configuration, the clock and the rate limits, decorated before everything that reads them. */
export const settings = fp<Settings>(
  (app, { config, clock, rateLimits }, done) => {
    app.decorate('config', config);
    app.decorate('clock', clock);
    app.decorate('rateLimits', rateLimits);
    done();
  },
  { name: 'settings' },
);
