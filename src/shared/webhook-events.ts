/**
 * What an endpoint can subscribe to: every kind of activity entry, the reorder point of a product
 * being reached, and (never subscribed, always sent on request) the test event.
 */
export const WEBHOOK_EVENTS = [
  'product.created',
  'product.updated',
  'product.deleted',
  'products.deleted',
  'import.done',
  'stock.moved',
  'member.added',
  'member.role_changed',
  'member.removed',
  'catalogue.renamed',
  'undo',
  'reorder.reached',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event `POST …/webhooks/{webhookId}/test` sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
