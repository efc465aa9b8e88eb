/** Webhooks of a catalogue: what the app registers, and what other features queue events with. */
export { webhooksPlugin, type WebhooksPluginOptions } from './plugin.js';
export { webhookRoutes } from './routes.js';
export { activityEvent, enqueueWebhookEvent, enqueueWebhookEvents } from './enqueue.js';
