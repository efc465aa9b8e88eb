import fp from 'fastify-plugin';
import { systemResolver, type Resolver } from './addresses.js';
import { WebhookDeliverer } from './deliveries.js';
import { Webhooks } from './webhooks.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Catalogues' webhook endpoints (features/webhooks). */
    webhooks: Webhooks;
    /** The delivery worker (started by start.ts beside the outbox's, stopped with the app). */
    webhookDeliverer: WebhookDeliverer;
  }
}

export interface WebhooksPluginOptions {
  /** How host names are resolved (tests answer what they need). */
  resolve?: Resolver;
  /** One attempt's time limit in milliseconds (10 s unless told). */
  timeoutMs?: number;
}

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
      }),
    );
    app.addHook('onClose', async () => deliverer.stop());
    done();
  },
  { name: 'webhooks', dependencies: ['settings', 'database', 'outbox'] },
);
