import { z } from 'zod';
import { IMAGE_ACCEPTED_TYPES, IMAGE_MAX_BYTES, MIN_FORM_STOCK } from '../constants.js';
import { M, V } from '../messages.js';
import { barcodeProblem, formCode, skuProblem } from './product-codes.js';
import {
  productFields,
  reorderPointField,
  reorderQuantityField,
  stockWithMin,
  tagsSchema,
} from './product-fields.js';
import { parseCostToCents, parsePriceToCents } from './money.js';

// The create and edit forms: their fields stay as typed text, checked by the API's rules.

/**
 * The least stock the edit form takes: 0, so that a user can mark a product "Out of Stock"
 * The create form keeps its MIN_FORM_STOCK of 1.
 */
export const EDIT_FORM_MIN_STOCK = 0;

const formStock = (min: number) =>
  z.string().superRefine((value, ctx) => {
    const result = stockWithMin(min).safeParse(value);
    if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]!.message });
  });

/** A form's cost: blank is none, anything else a cost (0 allowed). */
const formCost = z.string().superRefine((value, ctx) => {
  if (value.trim() === '') return;
  const result = parseCostToCents(value);
  if (typeof result !== 'number') ctx.addIssue({ code: 'custom', message: result.error });
});

/** A form's tags, as chips: each one checked like the API's. */
const formTags = z.array(z.string()).superRefine((tags, ctx) => {
  const result = tagsSchema.safeParse(tags);
  if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]!.message });
});

/** A form's reorder point: blank is the catalogue's, anything else a point of its own. */
const formReorderPoint = z.string().superRefine((value, ctx) => {
  const result = reorderPointField.safeParse(value);
  if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]!.message });
});

/** A form's reorder quantity: blank is none, anything else how many to order. */
const formReorderQuantity = z.string().superRefine((value, ctx) => {
  const result = reorderQuantityField.safeParse(value);
  if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]!.message });
});

/** What the create form accepts: a stock of at least 1. Values stay as typed text. */
export const productFormSchema = z.object({
  ...productFields,
  price: z.string().superRefine((value, ctx) => {
    const result = parsePriceToCents(value);
    if (typeof result !== 'number') ctx.addIssue({ code: 'custom', message: result.error });
  }),
  stock: formStock(MIN_FORM_STOCK),
  sku: formCode(skuProblem).optional(),
  barcode: formCode(barcodeProblem).optional(),
  cost: formCost,
  tags: formTags,
  reorderPoint: formReorderPoint.optional(),
  reorderQuantity: formReorderQuantity.optional(),
});
export type ProductFormValues = z.input<typeof productFormSchema>;

/** A field of the edit form: blank means "keep the current value", anything else follows `rule`. */
const blankOr = (rule: z.ZodType<unknown, string>) =>
  z.string().superRefine((value, ctx) => {
    if (value.trim() === '') return;
    const result = rule.safeParse(value);
    if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]!.message });
  });

/**
 * The edit form: the create form's rules, but every field is optional, and the
 * stock may be 0 (EDIT_FORM_MIN_STOCK).
 */
export const productEditFormSchema = z.object({
  name: blankOr(productFormSchema.shape.name),
  description: blankOr(productFormSchema.shape.description),
  price: blankOr(productFormSchema.shape.price),
  stock: blankOr(formStock(EDIT_FORM_MIN_STOCK)),
  // Blank clears a code: an edit form shows the current code, so emptying it means "no code".
  sku: formCode(skuProblem).optional(),
  barcode: formCode(barcodeProblem).optional(),
  // Sent as they are: a blank cost clears it, no chips clears the tags.
  cost: formCost,
  tags: formTags,
  // Sent as they are: blank goes back to the catalogue's point, and to no quantity.
  reorderPoint: formReorderPoint.optional(),
  reorderQuantity: formReorderQuantity.optional(),
});

/**
 * Why an image file chosen in a form would be refused, or undefined when it is fine. The server
 * decodes every upload anyway; this only spares the user a pointless upload.
 */
export function imageFileError(file: { type: string; size: number }): string | undefined {
  if (!file.type.startsWith('image/')) return V.imageOnly;
  if (!(IMAGE_ACCEPTED_TYPES as readonly string[]).includes(file.type)) return M.imageUnsupported;
  if (file.size > IMAGE_MAX_BYTES) return M.imageTooLarge;
  return undefined;
}
