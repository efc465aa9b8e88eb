import fp from 'fastify-plugin';
import { systemResolver, type Resolver } from './addresses.js';
import { WebhookDeliverer } from './deliveries.js';
import { Webhooks } from './webhooks.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Catalogues' webhook endpoints (features/webhooks). */
    webhooks: Webhooks;
    /** The deliveries, a queue of the background runner (`deliverDue()` drains it in tests). */
    webhookDeliverer: WebhookDeliverer;
  }
}

export interface WebhooksPluginOptions {
  /** How host names are resolved (tests answer what they need). */
  resolve?: Resolver;
  /** One attempt's time limit in milliseconds for a healthy endpoint (10 s unless told). */
  timeoutMs?: number;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The webhooks: endpoints, and their deliveries queued on the runner with the hourly pruning of
 * finished ones. A write that answered without an error may have queued deliveries in its
 * transaction, committed by now: the queue looks at once rather than at its next poll.
 */
export const webhooksPlugin = fp<WebhooksPluginOptions>(
  (app, options, done) => {
    const policy = {
      allowPrivateNetwork: app.config.webhooksAllowPrivateNetwork,
      resolve: options.resolve ?? systemResolver,
    };
    const deliverer = new WebhookDeliverer({
      db: app.db,
      dialect: app.database.dialect,
      clock: app.clock,
      policy,
      outbox: app.outbox,
      runner: app.runner,
      publicUrl: app.config.publicUrl,
      log: app.log,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    app.decorate('webhookDeliverer', deliverer);
    app.decorate(
      'webhooks',
      new Webhooks({
        db: app.db,
        dialect: app.database.dialect,
        clock: app.clock,
        policy,
        deliverer,
        recordActivity: app.activity.record,
      }),
    );
    app.addHook('onResponse', (request, reply, next) => {
      if (WRITES.has(request.method) && reply.statusCode < 400) deliverer.wake();
      next();
    });
    done();
  },
  { name: 'webhooks', dependencies: ['settings', 'database', 'outbox', 'runner', 'activity'] },
);
