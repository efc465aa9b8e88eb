import { z } from 'zod';
import {
  DESCRIPTION_MAX,
  IMAGE_ACCEPTED_TYPES,
  IMAGE_MAX_EDGE,
  IMAGE_MAX_BYTES,
  MAX_PRICE,
  MAX_STOCK,
  MIN_FORM_STOCK,
  MIN_PRICE,
  PRODUCT_PAGE_DEFAULT,
  PRODUCT_PAGE_MAX,
  PRODUCT_NAME_MAX,
  PRODUCT_SORTS,
  SEARCH_MAX,
  LIST_STOCK_FILTERS,
  TAG_MAX,
  TAGS_MAX,
} from '../constants.js';
import { CODE_MAX } from '../codes.js';
import { M, V } from '../messages.js';
import { normalizeTags } from '../tags.js';
import { REORDER_MESSAGES, REORDER_POINT_MAX } from '../reorder.js';
import { ANSWER_LIMITS, hasNoNul, requiredText } from './common.js';
import { barcodeField, barcodeProblem, formCode, skuField, skuProblem } from './product-codes.js';
import { isBlank, parseCostToCents, parsePriceToCents } from './money.js';

const priceCents = z.unknown().transform((value, ctx) => {
  const result = parsePriceToCents(value);
  if (typeof result === 'number') return result;
  ctx.addIssue({ code: 'custom', message: result.error });
  return z.NEVER;
});

/** A cost: absent keeps it (undefined), null or blank clears it (null), else cents. */
const costCents = z.unknown().transform((value, ctx) => {
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

const stockWithMin = (min: number) =>
  z.unknown().transform((value, ctx) => {
    if (isBlank(value)) {
      ctx.addIssue({ code: 'custom', message: V.stockRequired });
      return z.NEVER;
    }
    const text =
      typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (!/^-?\d+(\.\d+)?$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: V.stockInvalid });
      return z.NEVER;
    }
    const stock = Number(text);
    // Below the minimum gives the one fixed message (V.stockMin) even where 0 is allowed, so that
    // every answer words it alike; the edit form's field shows its minimum of 0 itself.
    if (stock < min) ctx.addIssue({ code: 'custom', message: V.stockMin });
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

const productFields = {
  name: requiredText(V.nameRequired).max(PRODUCT_NAME_MAX, { error: V.productNameMax }),
  description: requiredText(V.descriptionRequired).max(DESCRIPTION_MAX, {
    error: V.descriptionMax,
  }),
};

/** What the API accepts: stock may be 0, so that "Out of Stock" is reachable. */
export const productCreateSchema = z.object({
  ...productFields,
  price: priceCents,
  stock: stockWithMin(0),
  sku: skuField,
  barcode: barcodeField,
  tags: tagsSchema.optional(),
  cost: costCents.optional(),
  reorderPoint: reorderPointField.optional(),
});
export type ProductCreate = z.output<typeof productCreateSchema>;
export const productUpdateSchema = productCreateSchema.partial();
export type ProductUpdate = z.output<typeof productUpdateSchema>;

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
  // Sent as it is: blank goes back to the catalogue's point.
  reorderPoint: formReorderPoint.optional(),
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

/** A page size in a query string: a whole number from 1 to `max`, `fallback` when absent. */
export const pageLimit = (max: number, fallback: number, message: string) =>
  z.coerce
    .number({ error: message })
    .int({ error: message })
    .min(1, { error: message })
    .max(max, { error: message })
    .meta({ format: 'int32' })
    .default(fallback);

/**
 * `stock=low` (1 to LOW_STOCK_THRESHOLD units), `stock=out` (0) or `stock=reorder` (at or below
 * the reorder point); absent: every product.
 */
export const stockFilterSchema = z
  .enum(LIST_STOCK_FILTERS, { error: V.stockFilterInvalid })
  .optional();

/** The longest cursor taken: room for one that carries a 200-character name in any script. */
export const CURSOR_MAX = 2048;

export const productListQuerySchema = z.object({
  // The server also counts the folded form (see searchText): 200 typed characters can become 3,600.
  q: z.string().trim().max(SEARCH_MAX, { error: V.searchTooLong }).optional(),
  sort: z.enum(PRODUCT_SORTS, { error: V.sortInvalid }).default('newest'),
  stock: stockFilterSchema,
  /** Only the products that carry this tag (case ignored). */
  tag: z
    .string({ error: V.tagFilterInvalid })
    .trim()
    .min(1, { error: V.tagFilterInvalid })
    .max(TAG_MAX, { error: V.tagFilterInvalid })
    .optional(),
  limit: pageLimit(PRODUCT_PAGE_MAX, PRODUCT_PAGE_DEFAULT, V.limitInvalid),
  cursor: z.string().max(CURSOR_MAX, { error: V.cursorInvalid }).optional(),
});
export type ProductListQuery = z.input<typeof productListQuerySchema>;

/** Any id is taken (one that is not a product's is a 404); the document says what ids look like. */
export const productIdParamsSchema = z.object({
  id: z.string().meta({ format: 'uuid', maxLength: 36 }),
});

/**
 * Formats and bounds document what the server sends (`.meta` checks nothing: the client parses
 * answers with these schemas as before); the server's tests check every answer against them.
 */
/** Answer fields with the bounds and formats the OpenAPI document states (ANSWER_LIMITS). */
export const uuid = z.string().meta({ format: 'uuid', maxLength: 36 });
const url = z.string().meta({ format: 'uri', maxLength: ANSWER_LIMITS.url });
export const timestamp = z.string().meta({ format: 'date-time', maxLength: 30 });
export const int32 = (maximum: number, minimum = 0) => ({ format: 'int32', minimum, maximum });

export const productListItemSchema = z.object({
  id: uuid,
  name: z.string().meta({ maxLength: PRODUCT_NAME_MAX }),
  price: z.number().meta({ minimum: MIN_PRICE, maximum: MAX_PRICE }),
  stock: z.number().int().meta(int32(MAX_STOCK)),
  description: z.string().meta({ maxLength: DESCRIPTION_MAX }),
  image: url,
  thumbnail: url,
  /** The shop's own code, as typed; null when the product has none. */
  sku: z.string().meta({ maxLength: CODE_MAX }).nullable(),
  /** The barcode; a GTIN reads without its padding zeros (UPC-A as 12 digits, EAN-13 as 13). */
  barcode: z.string().meta({ maxLength: CODE_MAX }).nullable(),
  tags: z.array(z.string().meta({ maxLength: TAG_MAX })).meta({ maxItems: TAGS_MAX }),
});
export type ProductListItem = z.infer<typeof productListItemSchema>;

export const productSchema = productListItemSchema.extend({
  /**
   * The size of `image` in pixels (`thumbnail` is that bounded to IMAGE_THUMBNAIL_EDGE): the
   * detail page tells the browser each file's width, so a phone downloads what it shows. Null
   * without an image, and for images stored before the size was recorded.
   */
  imageWidth: z.number().int().positive().meta(int32(IMAGE_MAX_EDGE)).nullable(),
  imageHeight: z.number().int().positive().meta(int32(IMAGE_MAX_EDGE)).nullable(),
  /** What a unit cost, in dollars; null when unset. */
  cost: z.number().meta({ minimum: 0, maximum: MAX_PRICE }).nullable(),
  active: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** Its own reorder point; null: its catalogue's. */
  // Always sent; optional so that an answer from before it existed still reads.
  reorderPoint: z.number().int().meta(int32(REORDER_POINT_MAX)).nullable().optional(),
});
export type Product = z.infer<typeof productSchema>;

export const productListResponseSchema = z.object({
  products: z.array(productListItemSchema).meta({ maxItems: PRODUCT_PAGE_MAX }),
  nextCursor: z.string().meta({ maxLength: CURSOR_MAX }).nullable(),
});
export type ProductListResponse = z.infer<typeof productListResponseSchema>;
export const productResponseSchema = z.object({ product: productSchema });
export const productMutationResponseSchema = z.object({
  message: z.string().meta({ maxLength: ANSWER_LIMITS.message }),
  product: productSchema,
});

/** A scanned or typed code to look up: a barcode (any GTIN form) or a SKU. */
export const productLookupQuerySchema = z.object({
  code: z
    .string({ error: V.codeRequired })
    .trim()
    .min(1, { error: V.codeRequired })
    .max(CODE_MAX, { error: V.codeMax }),
});
