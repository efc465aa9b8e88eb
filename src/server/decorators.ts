import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { DatabaseHandle, DB } from './infra/db/handle.js';
import type { ImageStorage } from './infra/images/storage.js';
import type { Clock } from './lib/clock.js';
import { Outbox } from './infra/mail/outbox.js';
import type { RateLimits } from './http/rate-limits.js';

/**
 * What the app is built with, each under its own name on the instance (`app.db`, `app.outbox` …),
 * decorated once in app.ts before any plugin: no module-level singletons, and a plugin takes by
 * name what it uses.
 */
declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    /** The query builder of `database`. */
    db: DB;
    clock: Clock;
    /** The mail outbox and its worker. */
    outbox: Outbox;
    rateLimits: RateLimits;
    /** Uploaded product images (local disk under DATA_DIR, or S3). */
    images: ImageStorage;
  }
}

export interface Services {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  rateLimits: RateLimits;
  images: ImageStorage;
}

/**
 * Decorates the app with its services, and the outbox built from them. Each names the decorators it is built from, so Fastify
 * refuses to start (FST_ERR_DEC_MISSING_DEPENDENCY) if one is missing or comes later.
 */
export function decorateServices(app: FastifyInstance, services: Services) {
  app.decorate('config', services.config);
  app.decorate('clock', services.clock);
  app.decorate('rateLimits', services.rateLimits);
  app.decorate('images', services.images);
  app.decorate('database', services.database);
  app.decorate('db', services.database.db, ['database']);
  app.decorate('outbox', new Outbox(app.db, app.clock, app.config, app.log), [
    'db',
    'clock',
    'config',
  ]);
}
