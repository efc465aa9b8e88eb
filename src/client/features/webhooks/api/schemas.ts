/**
 * The webhook answers' shapes, loaded beside their requests (lib/api-client.ts): the shared zod
 * schemas stay out of the screen's own code.
 */
const load = () => import('@shared/schemas/webhooks/webhooks.js');

export const webhooksSchema = () => load().then((m) => m.webhooksResponseSchema);
export const webhookCreatedSchema = () => load().then((m) => m.webhookCreatedSchema);
export const webhookSavedSchema = () => load().then((m) => m.webhookSavedSchema);
export const deliverySchema = () => load().then((m) => m.deliveryResponseSchema);

/** Where a catalogue's endpoints are cached: under the catalogue, dropped with it. */
export const webhooksKey = (catalogueId: string) =>
  ['catalogues', catalogueId, 'webhooks'] as const;

export const webhooksUrl = (catalogueId: string, webhookId?: string) =>
  `/catalogues/${encodeURIComponent(catalogueId)}/webhooks${
    webhookId === undefined ? '' : `/${encodeURIComponent(webhookId)}`
  }`;
