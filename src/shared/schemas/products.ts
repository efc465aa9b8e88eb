import { z } from 'zod';
import {
  DESCRIPTION_MAX,
  IMAGE_MAX_EDGE,
  MAX_PRICE,
  MAX_STOCK,
  MIN_PRICE,
  PRODUCT_PAGE_MAX,
  PRODUCT_NAME_MAX,
  TAG_MAX,
  TAGS_MAX,
} from '../constants.js';
import { CODE_MAX } from '../codes.js';
import { REORDER_POINT_MAX, REORDER_QUANTITY_MAX } from '../reorder.js';
import { ANSWER_LIMITS } from './common.js';
import { barcodeField, skuField } from './product-codes.js';
import {
  costCents,
  descriptionField,
  nameField,
  priceCents,
  reorderPointField,
  reorderQuantityField,
  stockWithMin,
  tagsSchema,
} from './product-fields.js';
import { CURSOR_MAX } from './product-queries.js';

// A product's API: what a write takes and what every answer sends. The fields, the forms and the
// queries live in the product-*.ts files beside this one.

/**
 * What the API accepts: stock may be 0, so that "Out of Stock" is reachable. The spec's fields come
 * first, in its form's order (see product-fields.ts), so that its errors come in that order too.
 */
export const productCreateSchema = z.object({
  name: nameField,
  price: priceCents,
  stock: stockWithMin(0),
  description: descriptionField,
  sku: skuField,
  barcode: barcodeField,
  tags: tagsSchema.optional(),
  cost: costCents.optional(),
  reorderPoint: reorderPointField.optional(),
  reorderQuantity: reorderQuantityField.optional(),
});
export type ProductCreate = z.output<typeof productCreateSchema>;
export const productUpdateSchema = productCreateSchema.partial();
export type ProductUpdate = z.output<typeof productUpdateSchema>;

/**
 * Formats and bounds document what the server sends (`.meta` checks nothing: the client parses
 * answers with these schemas as before); the server's tests check every answer against them.
 */
/** Answer fields with the bounds and formats the OpenAPI document states (ANSWER_LIMITS). */
export const uuid = z.string().meta({ format: 'uuid', maxLength: 36 });
const url = z.string().meta({ format: 'uri', maxLength: ANSWER_LIMITS.url });
export const timestamp = z.string().meta({ format: 'date-time', maxLength: 30 });
export const int32 = (maximum: number, minimum = 0) => ({ format: 'int32', minimum, maximum });

/** Its own reorder point; null: its catalogue's. */
// Always sent; optional so that an answer from before it existed still reads.
const productReorderPoint = z.number().int().meta(int32(REORDER_POINT_MAX)).nullable().optional();
/** How many to order when the reorder point is reached; null: none set. Not in the list. */
const productReorderQuantity = z
  .number()
  .int()
  .meta(int32(REORDER_QUANTITY_MAX, 1))
  .nullable()
  .optional();

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
  reorderPoint: productReorderPoint,
});
export type ProductListItem = z.infer<typeof productListItemSchema>;

/** A supplier of a product (features/purchasing), as the single-product read shows it. */
export const productSupplierSchema = z.object({
  supplierId: uuid,
  name: z.string().meta({ maxLength: 100 }),
  supplierSku: z.string().meta({ maxLength: 64 }).nullable(),
  /** In dollars; null when not given. */
  cost: z.number().meta({ minimum: 0, maximum: MAX_PRICE }).nullable(),
  preferred: z.boolean(),
});
export type ProductSupplier = z.infer<typeof productSupplierSchema>;

// The spec's fields first, in its order; the reorder point and quantity, ours, come last.
export const productSchema = productListItemSchema.omit({ reorderPoint: true }).extend({
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
  reorderPoint: productReorderPoint,
  reorderQuantity: productReorderQuantity,
  /**
   * Where its stock is: each location holding some, with its path and quantity, in the order of
   * their paths. Only on the single-product read.
   */
  locations: z
    .array(
      z.object({
        locationId: uuid,
        path: z.string().meta({ maxLength: 600 }),
        quantity: z.number().int().meta(int32(MAX_STOCK, 1)),
      }),
    )
    .meta({ maxItems: 10_000 })
    .optional(),
  /** Who sells it: its suppliers, the preferred one first. Only on the single-product read. */
  suppliers: z.array(productSupplierSchema).meta({ maxItems: 20 }).optional(),
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
