import { z } from 'zod';
import { SOURCE_HEADER, SOURCE_HEADER_VALUES } from '../activity.js';
import { M } from '../messages.js';
import { IDEMPOTENCY_HEADER } from './live-events.js';

/**
 * An Idempotency-Key: 1 to 255 printable ASCII characters (space to tilde). Each rule says so in
 * the same words: the length rules also give the document its bounds.
 */
const idempotencyKeySchema = z
  .string()
  .min(1, M.idempotencyKeyInvalid)
  .max(255, M.idempotencyKeyInvalid)
  .regex(/^[\x20-\x7e]{1,255}$/, M.idempotencyKeyInvalid)
  .describe(
    'Optional. The same key from the same user within 24 hours gets the first answer again (same status and body, with `Idempotent-Replayed: true`) and changes nothing more; the same key with another request is 422.',
  );

/**
 * The headers a product write declares: the key, and every other header as it comes (the schema
 * only checks the key; Fastify replaces the headers with what it returns).
 */
export const idempotentWriteHeadersSchema = z.looseObject({
  // Node gives header names in lower case.
  [IDEMPOTENCY_HEADER.toLowerCase()]: idempotencyKeySchema.optional(),
  [SOURCE_HEADER.toLowerCase()]: z
    .string()
    .meta({ maxLength: 20 })
    .optional()
    .describe(
      `Optional. Where the change was made, kept in the activity log: ${SOURCE_HEADER_VALUES.join(', ')} (any other value is 400); without it, \`api\`.`,
    ),
});
