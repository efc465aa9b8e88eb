import { z } from 'zod';
import { IMAGE_ACCEPTED_TYPES, IMAGE_MAX_BYTES, MIN_FORM_STOCK } from '../constants.js';
import { M, V } from '../messages.js';
import { barcodeProblem, formCode, skuProblem } from './product-codes.js';
// The API's rules, by which each field of a form is checked.
import * as api from './product-fields.js';
import { parseCostToCents, parsePriceToCents } from './money.js';

// The create and edit forms: their fields stay as typed text, checked by the API's rules.

/**
 * The least stock the edit form takes: 0, so that a user can mark a product "Out of Stock"
 * The create form keeps its MIN_FORM_STOCK of 1.
 */
export const EDIT_FORM_MIN_STOCK = 0;

/** A check of a form's value by the API's `rule`: its first problem is the field's message. */
const checkedBy = (rule: z.ZodType) => (value: unknown, ctx: z.RefinementCtx) => {
  const result = rule.safeParse(value);
  if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]!.message });
};

const formStock = (min: number) => z.string().superRefine(checkedBy(api.stockWithMin(min)));

/** A form's cost: blank is none, anything else a cost (0 allowed). */
const formCost = z.string().superRefine((value, ctx) => {
  if (value.trim() === '') return;
  const result = parseCostToCents(value);
  if (typeof result !== 'number') ctx.addIssue({ code: 'custom', message: result.error });
});

/** A form's tags, as chips: each one checked like the API's. */
const formTags = z.array(z.string()).superRefine(checkedBy(api.tagsSchema));

/** A form's reorder point: blank is the catalogue's, anything else a point of its own. */
const formReorderPoint = z.string().superRefine(checkedBy(api.reorderPointField));

/** A form's reorder quantity: blank is none, anything else how many to order. */
const formReorderQuantity = z.string().superRefine(checkedBy(api.reorderQuantityField));

/**
 * The fields both forms send as they are: a blank code, cost or reorder quantity is none, a blank
 * reorder point the catalogue's, no chips no tags (an edit form shows the current values, so
 * emptying one clears it).
 */
const sentAsTyped = {
  sku: formCode(skuProblem).optional(),
  barcode: formCode(barcodeProblem).optional(),
  cost: formCost,
  tags: formTags,
  reorderPoint: formReorderPoint.optional(),
  reorderQuantity: formReorderQuantity.optional(),
};

/** What the create form accepts: a stock of at least 1. Values stay as typed text. */
export const productFormSchema = z.object({
  name: api.nameField,
  price: z.string().superRefine((value, ctx) => {
    const result = parsePriceToCents(value);
    if (typeof result !== 'number') ctx.addIssue({ code: 'custom', message: result.error });
  }),
  stock: formStock(MIN_FORM_STOCK),
  description: api.descriptionField,
  ...sentAsTyped,
});
export type ProductFormValues = z.input<typeof productFormSchema>;

/** A field of the edit form: blank means "keep the current value", anything else follows `rule`. */
const blankOr = (rule: z.ZodType<unknown, string>) =>
  z.string().superRefine((value, ctx) => {
    if (value.trim() !== '') checkedBy(rule)(value, ctx);
  });

/**
 * The edit form: the create form's rules, but every field is optional, and the
 * stock may be 0 (EDIT_FORM_MIN_STOCK).
 */
export const productEditFormSchema = z.object({
  name: blankOr(productFormSchema.shape.name),
  price: blankOr(productFormSchema.shape.price),
  stock: blankOr(formStock(EDIT_FORM_MIN_STOCK)),
  description: blankOr(productFormSchema.shape.description),
  ...sentAsTyped,
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
