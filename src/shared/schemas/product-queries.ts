import { z } from 'zod';
import {
  LIST_STOCK_FILTERS,
  PRODUCT_PAGE_DEFAULT,
  PRODUCT_PAGE_MAX,
  PRODUCT_SORTS,
  SEARCH_MAX,
  TAG_MAX,
} from '../constants.js';
import { CODE_MAX } from '../codes.js';
import { V } from '../messages.js';

// What the product routes take in their query strings and paths.

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
const stockFilterSchema = z.enum(LIST_STOCK_FILTERS, { error: V.stockFilterInvalid }).optional();

/** What an id looks like (a UUID, in either case). */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  /** Only the products held in this location or one under it (its id; case ignored). */
  location: z
    .string({ error: V.locationFilterInvalid })
    .regex(UUID_TEXT, { error: V.locationFilterInvalid })
    .transform((id) => id.toLowerCase())
    .meta({ format: 'uuid', maxLength: 36 })
    .optional(),
  limit: pageLimit(PRODUCT_PAGE_MAX, PRODUCT_PAGE_DEFAULT, V.limitInvalid),
  cursor: z.string().max(CURSOR_MAX, { error: V.cursorInvalid }).optional(),
});

/** Any id is taken (one that is not a product's is a 404); the document says what ids look like. */
export const productIdParamsSchema = z.object({
  id: z.string().meta({ format: 'uuid', maxLength: 36 }),
});

/** A scanned or typed code to look up: a barcode (any GTIN form) or a SKU. */
export const productLookupQuerySchema = z.object({
  code: z
    .string({ error: V.codeRequired })
    .trim()
    .min(1, { error: V.codeRequired })
    .max(CODE_MAX, { error: V.codeMax }),
});
