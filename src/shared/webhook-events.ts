import { ACTIVITY_KINDS } from './activity.js';

/**
 * What an endpoint can subscribe to: every kind of activity entry, the reorder point of a product
 * being reached, and (never subscribed, always sent on request) the test event.
 */
export const WEBHOOK_EVENTS = [...ACTIVITY_KINDS, 'reorder.reached'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event `POST …/webhooks/{webhookId}/test` sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
