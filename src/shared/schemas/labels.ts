import { z } from 'zod';
import { LABEL_LAYOUTS, LABELS_MAX, LABELS_PER_PAGE } from '../labels.js';
import { T, V } from '../messages.js';

/** The longest `ids` taken: LABELS_MAX ids of 36 characters and their commas. */
const IDS_TEXT_MAX = LABELS_MAX * 37;

/** A whole number in a query string, from `min` to `max`, `fallback` when absent. */
const wholeNumber = (min: number, max: number, fallback: number, message: string) =>
  z.coerce
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message })
    .meta({ format: 'int32' })
    .default(fallback);

/** How the labels are laid out: the sheet or roll, copies of each, cells of a used sheet skipped. */
export const labelOptions = {
  layout: z.enum(LABEL_LAYOUTS, { error: V.labelLayoutInvalid }).default('avery-l7160'),
  copies: wholeNumber(1, LABELS_MAX, 1, V.labelCopiesInvalid),
  skip: wholeNumber(0, Math.max(...Object.values(LABELS_PER_PAGE)) - 1, 0, T.labelSkipInvalid(29)),
};

/** At most one page of the layout, less one label, can be skipped. */
export const skipWithinThePage = (
  labels: { layout: keyof typeof LABELS_PER_PAGE; skip: number },
  ctx: z.RefinementCtx,
) => {
  const max = LABELS_PER_PAGE[labels.layout] - 1;
  if (labels.skip > max) {
    ctx.addIssue({ code: 'custom', path: ['skip'], message: T.labelSkipInvalid(max) });
  }
};

/**
 * What a labels PDF is made from: the products (in the order given, an id may repeat), the layout,
 * how many copies of each label, and how many cells of the first sheet are used already.
 */
export const labelsQuerySchema = z
  .object({
    ids: z
      .string({ error: V.labelIdsInvalid })
      .max(IDS_TEXT_MAX, { error: V.labelIdsInvalid })
      .transform((text) => text.split(',').map((id) => id.trim()))
      .refine((ids) => ids.every((id) => id !== ''), { error: V.labelIdsInvalid })
      .meta({ description: 'Product ids, comma-separated' }),
    ...labelOptions,
  })
  .superRefine(skipWithinThePage);

/** The same as a JSON body, for selections too long for an address: `ids` is an array. */
export const labelsBodySchema = z
  .object({
    ids: z
      .array(
        z
          .string({ error: V.labelIdListInvalid })
          .trim()
          .min(1, { error: V.labelIdListInvalid })
          .max(100, { error: V.labelIdListInvalid }),
        { error: V.labelIdListInvalid },
      )
      .min(1, { error: V.labelIdListInvalid })
      .max(LABELS_MAX, { error: V.labelIdListInvalid })
      .meta({ description: 'Product ids, in the order to print' }),
    ...labelOptions,
  })
  .superRefine(skipWithinThePage);
