import { z } from 'zod';
import { DESCRIPTION_MAX, MAX_STOCK, PRODUCT_NAME_MAX, TAG_MAX, TAGS_MAX } from '../constants.js';
import { V } from '../messages.js';
import { normalizeTags } from '../tags.js';
import { REORDER_MESSAGES, REORDER_POINT_MAX, REORDER_QUANTITY_MAX } from '../reorder.js';
import { hasNoNul, requiredText } from './common.js';
import { isBlank, parseCostToCents, parsePriceToCents } from './money.js';

// A product's fields as the API reads them; the forms (product-forms.ts) check typed text by the
// same rules.

export const priceCents = z.unknown().transform((value, ctx) => {
  const result = parsePriceToCents(value);
  if (typeof result === 'number') return result;
  ctx.addIssue({ code: 'custom', message: result.error });
  return z.NEVER;
});

/** A cost: absent keeps it (undefined), null or blank clears it (null), else cents. */
export const costCents = z.unknown().transform((value, ctx) => {
  if (value === undefined) return undefined;
  if (isBlank(value)) return null;
  const result = parseCostToCents(value);
  if (typeof result === 'number') return result;
  ctx.addIssue({ code: 'custom', message: result.error });
  return z.NEVER;
});

/** Tags: a list of at most TAGS_MAX, each 1 to TAG_MAX characters once trimmed, kept once each. */
export const tagsSchema = z
  .array(
    z
      .string({ error: V.tagsInvalid })
      .trim()
      .min(1, { error: V.tagInvalid })
      .max(TAG_MAX, { error: V.tagInvalid })
      .refine(hasNoNul, { error: V.textNul }),
    { error: V.tagsInvalid },
  )
  .max(TAGS_MAX, { error: V.tagsInvalid })
  .transform(normalizeTags);

/** A count as typed: trimmed, and a leading minus sign (U+2212, as some keyboards type it) read as '-'. */
const stockText = (typed: string) => typed.trim().replace(/^\u2212/, '-');

export const stockWithMin = (min: number) =>
  z.unknown().transform((value, ctx) => {
    if (isBlank(value)) {
      ctx.addIssue({ code: 'custom', message: V.stockRequired });
      return z.NEVER;
    }
    const text =
      typeof value === 'number' ? String(value) : typeof value === 'string' ? stockText(value) : '';
    if (!/^-?\d+(\.\d+)?$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: V.stockInvalid });
      return z.NEVER;
    }
    const stock = Number(text);
    // Where 0 is allowed, a negative count is called that; below the create form's minimum of 1,
    // the spec's 'greater than 0'.
    if (stock < 0 && min <= 0) ctx.addIssue({ code: 'custom', message: V.stockNegative });
    else if (stock < min) ctx.addIssue({ code: 'custom', message: V.stockMin });
    else if (!Number.isInteger(stock)) ctx.addIssue({ code: 'custom', message: V.stockInteger });
    else if (stock > MAX_STOCK) ctx.addIssue({ code: 'custom', message: V.stockMax });
    else return stock;
    return z.NEVER;
  });

/**
 * A product's own reorder point: a whole number from 0 to REORDER_POINT_MAX, or null (or blank in a
 * form) for the catalogue's; absent keeps it (undefined).
 */
export const reorderPointField = z.unknown().transform((value, ctx) => {
  if (value === undefined) return undefined;
  if (value === null || isBlank(value)) return null;
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const point = /^\d+(\.0+)?$/.test(text) ? Number(text) : NaN;
  if (Number.isInteger(point) && point <= REORDER_POINT_MAX) return point;
  ctx.addIssue({ code: 'custom', message: REORDER_MESSAGES.reorderPointInvalid });
  return z.NEVER;
});

/**
 * How many to order when the reorder point is reached: a whole number from 1 to
 * REORDER_QUANTITY_MAX, or null (or blank in a form) for none; absent keeps it (undefined).
 */
export const reorderQuantityField = z.unknown().transform((value, ctx) => {
  if (value === undefined) return undefined;
  if (value === null || isBlank(value)) return null;
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const quantity = /^\d+(\.0+)?$/.test(text) ? Number(text) : NaN;
  if (Number.isInteger(quantity) && quantity >= 1 && quantity <= REORDER_QUANTITY_MAX)
    return quantity;
  ctx.addIssue({ code: 'custom', message: REORDER_MESSAGES.reorderQuantityInvalid });
  return z.NEVER;
});

// A schema lists its fields in the spec's order, Name, Price, Stock, (Image), Description, then
// ours: zod reports the failing fields in that order, and the first one is the answer's message.
export const nameField = requiredText(V.nameRequired).max(PRODUCT_NAME_MAX, {
  error: V.productNameMax,
});
export const descriptionField = requiredText(V.descriptionRequired).max(DESCRIPTION_MAX, {
  error: V.descriptionMax,
});
