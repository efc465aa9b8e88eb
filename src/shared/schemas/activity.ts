import { z } from 'zod';
import {
  ACTIVITY_KINDS,
  ACTIVITY_MESSAGES as A,
  ACTIVITY_PAGE_DEFAULT,
  ACTIVITY_PAGE_MAX,
  ACTIVITY_SOURCES,
} from '../activity.js';
import { NAME_MAX, PRODUCT_NAME_MAX } from '../constants.js';
import { isCalendarDay } from './common.js';
import { pageLimit } from './product-queries.js';
import { timestamp, uuid } from './products.js';

/** A date (`2026-11-27`, the whole day) or a date and time, as JavaScript reads ISO 8601. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const isoDate = (field: string) =>
  z
    .string()
    .max(40, { error: `${field} ${A.dateInvalid}` })
    .refine(
      (value) => ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)) && isCalendarDay(value),
      {
        error: `${field} ${A.dateInvalid}`,
      },
    )
    .describe('An ISO 8601 date (the whole day, UTC) or date and time');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idOf = (field: string) =>
  z
    .string()
    .regex(UUID, { error: `${field} ${A.idInvalid}` })
    .meta({ format: 'uuid', maxLength: 36 });

export const activityQuerySchema = z.object({
  /** Only the entries of this product. */
  product: idOf('product').optional(),
  /** Only the changes this member made. */
  member: idOf('member').optional(),
  kind: z.enum(ACTIVITY_KINDS, { error: A.kindInvalid }).optional(),
  /** From this date or time on, inclusive. */
  from: isoDate('from').optional(),
  /** Up to this date or time, inclusive (a date: to its end). */
  to: isoDate('to').optional(),
  cursor: z.string().max(100, { error: 'cursor is not valid' }).optional(),
  limit: pageLimit(ACTIVITY_PAGE_MAX, ACTIVITY_PAGE_DEFAULT, A.limitInvalid),
});
export type ActivityQuery = z.input<typeof activityQuerySchema>;

/** At most this many fields in an entry's changes or data: a product has fewer than that. */
const ENTRY_KEYS_MAX = 20;

export const activityEntrySchema = z.object({
  /** Grows with every entry (a decimal number as text). */
  id: z.string().meta({ maxLength: 20 }),
  kind: z.enum(ACTIVITY_KINDS),
  at: timestamp,
  source: z.enum(ACTIVITY_SOURCES),
  /** Who made the change; null once their account is deleted. */
  /** Who made the change; `id` is null once their account was deleted (the name stays). */
  actor: z
    .object({ id: uuid.nullable(), name: z.string().meta({ maxLength: NAME_MAX }) })
    .nullable(),
  /** The product changed, by the name it had then; null for changes of no one product. */
  product: z
    .object({ id: uuid, name: z.string().meta({ maxLength: PRODUCT_NAME_MAX }) })
    .nullable(),
  /** Each field changed, before and after (prices in cents); null when there is nothing to show. */
  // Objects with a catchall rather than z.record: zod's record code would join the schemas chunk
  // that the product list loads (vite.config.ts).
  changes: z
    .object({})
    .catchall(z.object({ before: z.unknown(), after: z.unknown() }))
    .meta({ maxProperties: ENTRY_KEYS_MAX })
    .nullable(),
  /** The rest of what the kind tells (a movement's stock, an undo's entry, a member...). */
  data: z.looseObject({}).meta({ maxProperties: ENTRY_KEYS_MAX }),
  /** Whether the caller may undo it now. */
  undoable: z.boolean(),
  /** The id of the entry that undid it, if one did. */
  undoneBy: z.string().meta({ maxLength: 20 }).nullable(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** Newest first; pass `nextCursor` back as `cursor` for older ones (null on the last page). */
export const activityResponseSchema = z.object({
  entries: z.array(activityEntrySchema).meta({ maxItems: ACTIVITY_PAGE_MAX }),
  nextCursor: z.string().meta({ maxLength: 100 }).nullable(),
});
export type ActivityResponse = z.infer<typeof activityResponseSchema>;

/**
 * An entry's id as a path gives it. Any text is taken: one no entry could have (not a whole
 * number, or past the largest) is an unknown entry (404), as other routes treat malformed ids.
 */
export const activityEntryParamsSchema = z.object({
  entryId: z.string().meta({ pattern: '^\\d+$', maxLength: 20 }).describe("An activity entry's id"),
});

export const undoResponseSchema = z.object({ entry: activityEntrySchema });
export type UndoResponse = z.infer<typeof undoResponseSchema>;
