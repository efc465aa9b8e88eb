import {
  ACTIVITY_KINDS,
  isWebhookSettingKind,
  type ActivityKind,
  type WebhookSettingKind,
} from './activity.js';

type ActivityEvent = Exclude<ActivityKind, WebhookSettingKind>;

/**
 * What an endpoint can subscribe to: every kind of activity entry but the changes of the
 * endpoints themselves, the reorder point of a product being reached, and (never subscribed,
 * always sent on request) the test event.
 */
export const WEBHOOK_EVENTS: readonly [...ActivityEvent[], 'reorder.reached'] = [
  ...ACTIVITY_KINDS.filter((kind): kind is ActivityEvent => !isWebhookSettingKind(kind)),
  'reorder.reached',
];
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event `POST …/webhooks/{webhookId}/test` sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
