/*
 * Apart from the other schemas (a folder of its own): the build puts src/shared/schemas/*.ts in the
 * one chunk the signed-in list loads, and only the settings screen needs these.
 */
import { z } from 'zod';
import { messageSchema } from '../common.js';
import { int32, timestamp, uuid } from '../products.js';
import { catalogueParamsSchema } from '../catalogues.js';
import { WEBHOOK_EVENTS } from '../../webhook-events.js';

export { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, type WebhookEvent } from '../../webhook-events.js';

/** Endpoints one catalogue may register. */
export const WEBHOOKS_MAX = 20;
export const WEBHOOK_URL_MAX = 2000;
/** Deliveries `GET …/deliveries` answers with, newest first. */
export const DELIVERIES_SHOWN = 50;

/** Texts the API answers with (tests and screens read the same words). */
export const W = {
  httpsOnly: 'Webhook URLs must use https',
  privateAddress: 'Webhook URL must not point to a private address',
  urlInvalid: 'Enter a valid URL, like https://example.com/hooks',
  urlMax: `Webhook URLs must be at most ${WEBHOOK_URL_MAX} characters`,
  eventsRequired: 'Choose at least one event',
  eventUnknown: `Events must be among: ${WEBHOOK_EVENTS.join(', ')}`,
  notFound: 'Webhook not found',
  tooMany: `A catalogue can have at most ${WEBHOOKS_MAX} webhooks`,
  added: 'Webhook added',
  updated: 'Webhook updated',
  deleted: 'Webhook deleted',
  secretRotated: 'Signing secret replaced',
} as const;

const urlSchema = z
  .string({ error: W.urlInvalid })
  .trim()
  .min(1, { error: W.urlInvalid })
  .max(WEBHOOK_URL_MAX, { error: W.urlMax })
  .refine((value) => URL.canParse(value) && /^[a-z][a-z0-9+.-]*:\/\//i.test(value), {
    error: W.urlInvalid,
  })
  .meta({ format: 'uri' });

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, { error: W.eventUnknown }), { error: W.eventsRequired })
  .min(1, { error: W.eventsRequired })
  .max(WEBHOOK_EVENTS.length * 4, { error: W.eventUnknown })
  .transform((events) => [...new Set(events)]);

/** `POST /api/catalogues/{catalogueId}/webhooks`. */
export const webhookBodySchema = z.object({
  url: urlSchema,
  events: eventsSchema,
  enabled: z.boolean().optional(),
});
/** `PATCH …/webhooks/{webhookId}`: any of the three. */
export const webhookPatchSchema = z.object({
  url: urlSchema.optional(),
  events: eventsSchema.optional(),
  enabled: z.boolean().optional(),
});

export const webhookParamsSchema = catalogueParamsSchema.extend({ webhookId: uuid });

const httpStatus = z.number().int().min(0).max(999).meta(int32(999, 0)).nullable();
const errorText = z.string().meta({ maxLength: 500 }).nullable();

/**
 * An endpoint as its catalogue's admins see it: never its secret (shown once). `lastStatus` is
 * the HTTP status of the newest attempt (null: none yet, or no answer, then `lastError` says why).
 */
export const webhookSchema = z.object({
  id: uuid,
  url: z.string().meta({ maxLength: WEBHOOK_URL_MAX }),
  events: z.array(z.enum(WEBHOOK_EVENTS)).meta({ maxItems: WEBHOOK_EVENTS.length }),
  enabled: z.boolean(),
  createdAt: timestamp,
  lastAttemptAt: timestamp.nullable(),
  lastStatus: httpStatus,
  lastSucceeded: z.boolean().nullable(),
  lastError: errorText,
  /** When the worker switched it off after failing for 3 days; null otherwise. */
  disabledAt: timestamp.nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

const secretSchema = z
  .string()
  .meta({ maxLength: 100, description: 'whsec_ and base64: shown this once' });

export const webhooksResponseSchema = z.object({
  webhooks: z.array(webhookSchema).meta({ maxItems: WEBHOOKS_MAX }),
});
export const webhookResponseSchema = z.object({ webhook: webhookSchema });
export const webhookSavedSchema = messageSchema.extend({ webhook: webhookSchema });
export const webhookCreatedSchema = messageSchema.extend({
  webhook: webhookSchema,
  secret: secretSchema,
});
export const webhookSecretSchema = messageSchema.extend({ secret: secretSchema });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const deliverySchema = z.object({
  id: uuid,
  type: z.string().meta({ maxLength: 50 }),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int().min(0).meta(int32(1_000, 0)),
  /** When the next attempt is due; null once delivered or given up. */
  nextAttemptAt: timestamp.nullable(),
  lastStatus: httpStatus,
  lastError: errorText,
  createdAt: timestamp,
  deliveredAt: timestamp.nullable(),
});
export type WebhookDelivery = z.infer<typeof deliverySchema>;
export const deliveryResponseSchema = z.object({ delivery: deliverySchema });
export const deliveriesResponseSchema = z.object({
  deliveries: z.array(deliverySchema).meta({ maxItems: DELIVERIES_SHOWN }),
});
