import { z } from 'zod';
import {
  BULK_DELETE_MAX,
  MAX_PRICE,
  DESCRIPTION_MAX,
  IMPORT_ERRORS_MAX,
  IMPORT_MATCHES,
  IMPORT_MAX_ROWS,
  IMPORT_PREVIEW_ROWS,
  NAME_MAX,
  PRODUCT_NAME_MAX,
  MAX_STOCK,
  MOVEMENT_PAGE_DEFAULT,
  MOVEMENT_PAGE_MAX,
  MOVEMENT_SOURCES,
  STOCK_NOTE_MAX,
  STOCK_REASONS,
  TAG_MAX,
  TAGS_MAX,
} from '../constants.js';
import { CODE_MAX } from '../codes.js';
import { V } from '../messages.js';
import { ANSWER_LIMITS, hasNoNul } from './common.js';
import { int32, timestamp, uuid } from './products.js';

/** Any UUID's text, whatever its version. */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
import { pageLimit, productListQuerySchema } from './product-queries.js';

/** The catalogue operations beyond one product at a time: export, import, stock moves, summary. */

/** Text the server sends, with the bound the OpenAPI document states. */
const message = (maxLength: number) => z.string().meta({ maxLength });

/** What the CSV export takes: the list's search, order and stock filter. */
export const productExportQuerySchema = productListQuerySchema.pick({
  q: true,
  sort: true,
  stock: true,
  tag: true,
});
export type ProductExportQuery = z.input<typeof productExportQuerySchema>;

/** What the summary takes: the list's search and stock filter (the order changes nothing). */
export const productSummaryQuerySchema = productListQuerySchema.pick({
  q: true,
  stock: true,
  tag: true,
  location: true,
});
export type ProductSummaryQuery = z.input<typeof productSummaryQuerySchema>;

/**
 * A sum of money in dollars, added up in integer cents: a number while its JSON text is exactly the
 * amount, else the exact decimal as text (a double holds every cent only up to 2^53 cents).
 */
export const moneyTotalSchema = z
  .xor([
    z.number().meta({ minimum: 0 }),
    z
      .string()
      .regex(/^\d+\.\d{2}$/)
      .meta({ maxLength: 40, example: '107374181276258176500.00' }),
  ])
  .describe(
    'Dollars, summed exactly in integer cents. A JSON number while that number is exactly the amount to the cent (totals under about $70 trillion); beyond, a string holding the exact decimal with two decimals, such as "107374181276258176500.00".',
  );

/** The products a list shows under a filter: how many, their units, and price × stock in dollars. */
export const productSummarySchema = z.object({
  count: z.number().int().meta({ format: 'int64', minimum: 0 }),
  units: z.number().int().meta({ format: 'int64', minimum: 0 }),
  value: moneyTotalSchema,
  /** Cost × stock of the products that have a cost, exact like `value`; only when one has. */
  valueAtCost: moneyTotalSchema.optional(),
  /** How many of those products are to reorder: at or below their own or their catalogue's point. */
  // Always sent; optional so that an answer from before it existed still reads.
  toReorder: z.number().int().meta({ format: 'int64', minimum: 0 }).optional(),
});
export type ProductSummary = z.infer<typeof productSummarySchema>;

/** `true` or `false` in a query string; absent is false. */
const queryFlag = (message: string) =>
  z
    .enum(['true', 'false'], { error: message })
    .default('false')
    .transform((value) => value === 'true');

export const importQuerySchema = z.object({
  dryRun: queryFlag(V.dryRunInvalid),
  /** What to do with a row that matches an existing product: update it, leave it, or copy it. */
  matches: z.enum(IMPORT_MATCHES, { error: V.matchesInvalid }).default('update'),
  /** Adds `preview` (the first valid rows as they would be stored) and `rows` to the report. */
  preview: queryFlag(V.previewInvalid),
});
export type ImportQuery = z.input<typeof importQuerySchema>;

/** One problem of an import: the CSV line where its record starts (the header is line 1). */
export const importErrorSchema = z.object({
  line: z.number().int().meta(int32(MAX_STOCK, 1)),
  /** The column (`name`, `price`, `stock`, `description`), or `file` for the file as a whole. */
  path: message(ANSWER_LIMITS.path),
  message: message(ANSWER_LIMITS.message),
});
export type ImportError = z.infer<typeof importErrorSchema>;

/** A valid row as the API would store it. */
export const importPreviewRowSchema = z.object({
  line: z.number().int().meta(int32(MAX_STOCK, 1)),
  name: z.string().meta({ maxLength: PRODUCT_NAME_MAX }),
  price: z.number(),
  stock: z.number().int().meta(int32(MAX_STOCK)),
  description: z.string().meta({ maxLength: DESCRIPTION_MAX }),
  // Each only where the file has its column (without it an update keeps the product's own).
  sku: z.string().meta({ maxLength: CODE_MAX }).nullable().optional(),
  barcode: z.string().meta({ maxLength: CODE_MAX }).nullable().optional(),
  tags: z
    .array(z.string().meta({ maxLength: TAG_MAX }))
    .meta({ maxItems: TAGS_MAX })
    .optional(),
  cost: z.number().meta({ minimum: 0, maximum: MAX_PRICE }).nullable().optional(),
});
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;

/** A value of a product's field as the API shows it: text, a number, tags, or none (a cost). */
const fieldValue = z.union([
  // null sits with the text, where the document can give it a type (no cost is null).
  z.string().meta({ maxLength: DESCRIPTION_MAX }).nullable(),
  z.number(),
  z.array(z.string().meta({ maxLength: TAG_MAX })).meta({ maxItems: TAGS_MAX }),
]);

/** The fields of a product an import can change, as its columns name them. */
export const IMPORT_CHANGE_FIELDS = [
  'name',
  'price',
  'stock',
  'description',
  'tags',
  'cost',
  'sku',
  'barcode',
  'reorderPoint',
  'reorderQuantity',
] as const;

/** A product an import would update: its row, its id, and each field that changes. */
export const importChangeSchema = z.object({
  line: z.number().int().meta(int32(MAX_STOCK, 1)),
  id: uuid,
  fields: z
    .array(
      z.object({
        field: z.enum(IMPORT_CHANGE_FIELDS),
        before: fieldValue,
        after: fieldValue,
      }),
    )
    .meta({ maxItems: IMPORT_CHANGE_FIELDS.length }),
});
export type ImportChange = z.infer<typeof importChangeSchema>;

/**
 * The answer of an import, dry run or not. `created`: the products created, so 0 when any row has
 * an error (an import creates every row or none); on a dry run, the rows that pass the checks.
 */
export const importReportSchema = z.object({
  message: message(ANSWER_LIMITS.message),
  created: z.number().int().meta(int32(IMPORT_MAX_ROWS)),
  /** Existing products the rows changed (or, on a dry run, would change). */
  updated: z.number().int().meta(int32(IMPORT_MAX_ROWS)),
  /** Rows that matched a product and change nothing (with `matches=skip`, every match). */
  unchanged: z.number().int().meta(int32(IMPORT_MAX_ROWS)),
  errors: z.array(importErrorSchema).meta({ maxItems: IMPORT_ERRORS_MAX }),
  /** Only with `preview=true`: the data rows read, and the first valid ones. */
  rows: z.number().int().meta(int32(IMPORT_MAX_ROWS)).optional(),
  preview: z.array(importPreviewRowSchema).meta({ maxItems: IMPORT_PREVIEW_ROWS }).optional(),
  /** On a dry run: the first updates, field by field. */
  changes: z.array(importChangeSchema).meta({ maxItems: IMPORT_PREVIEW_ROWS }).optional(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** Why a stock change happened; optional everywhere. */
const stockReasonSchema = z.enum(STOCK_REASONS, { error: V.reasonInvalid });

/**
 * A change of stock: `delta` (units added or taken away) or `count` (the stock as counted, set
 * absolutely, so that a count made while others changed the stock still ends at the number
 * counted), exactly one of them; with an optional reason and note.
 */
export const stockAdjustmentSchema = z
  .object({
    delta: z
      .number({ error: V.deltaInvalid })
      .int({ error: V.deltaInvalid })
      .meta({ format: 'int32' })
      .min(-MAX_STOCK, { error: V.deltaInvalid })
      .max(MAX_STOCK, { error: V.deltaInvalid })
      .refine((delta) => delta !== 0, { error: V.deltaInvalid })
      .optional(),
    count: z
      .number({ error: V.countInvalid })
      .int({ error: V.countInvalid })
      .meta({ format: 'int32' })
      .min(0, { error: V.countInvalid })
      .max(MAX_STOCK, { error: V.countInvalid })
      .optional(),
    reason: stockReasonSchema.nullish().transform((reason) => reason ?? null),
    /** Why the stock changed; blank is none. */
    note: z
      .string({ error: V.noteInvalid })
      .trim()
      .max(STOCK_NOTE_MAX, { error: V.noteInvalid })
      .refine(hasNoNul, { error: V.textNul })
      .nullish()
      .transform((note) => (note ? note : null)),
    /** The location whose quantity changes; the catalogue's default location without one. */
    locationId: z
      .string({ error: V.locationIdInvalid })
      .regex(UUID_TEXT, { error: V.locationIdInvalid })
      .meta({ format: 'uuid', maxLength: 36 })
      .optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.delta === undefined) === (body.count === undefined)) {
      ctx.addIssue({ code: 'custom', message: V.deltaOrCount, path: ['delta'] });
    }
  });
export type StockAdjustment = z.input<typeof stockAdjustmentSchema>;

export const stockMovementSchema = z.object({
  /** Increases with every movement (a decimal number as text). */
  id: message(20),
  productId: uuid,
  createdAt: timestamp,
  oldStock: z.number().int().meta(int32(MAX_STOCK)),
  newStock: z.number().int().meta(int32(MAX_STOCK)),
  delta: z.number().int().meta(int32(MAX_STOCK, -MAX_STOCK)),
  source: z.enum(MOVEMENT_SOURCES),
  reason: z.enum(STOCK_REASONS).nullable(),
  note: message(STOCK_NOTE_MAX).nullable(),
  /** The count whose posting (reason `counted`), or its undo, made it; null for any other. */
  countId: uuid.nullable(),
  /** The purchase order it received stock for (reason `received`); null for any other. */
  purchaseOrderId: uuid.nullable(),
  /** Who made the change; null for changes from before this was kept, or by a deleted account. */
  actor: z.object({ id: uuid, name: message(NAME_MAX) }).nullable(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;

export const movementsQuerySchema = z.object({
  limit: pageLimit(MOVEMENT_PAGE_MAX, MOVEMENT_PAGE_DEFAULT, V.movementLimitInvalid),
  cursor: z.string().max(100, { error: V.cursorInvalid }).optional(),
  /** Only the movements given this reason. */
  reason: stockReasonSchema.optional(),
});
export type MovementsQuery = z.input<typeof movementsQuerySchema>;

/** Newest first; pass `nextCursor` back as `cursor` for older ones (null on the last page). */
export const movementsResponseSchema = z.object({
  movements: z.array(stockMovementSchema).meta({ maxItems: MOVEMENT_PAGE_MAX }),
  nextCursor: message(100).nullable(),
});
export type MovementsResponse = z.infer<typeof movementsResponseSchema>;

export const bulkDeleteSchema = z.object({
  ids: z
    .array(z.string({ error: V.idsInvalid }).max(64, { error: V.idsInvalid }), {
      error: V.idsInvalid,
    })
    .min(1, { error: V.idsInvalid })
    .max(BULK_DELETE_MAX, { error: V.idsInvalid })
    .refine((ids) => new Set(ids).size === ids.length, { error: V.idsRepeated }),
});
export type BulkDelete = z.input<typeof bulkDeleteSchema>;

export const bulkDeleteResponseSchema = z.object({
  message: message(ANSWER_LIMITS.message),
  deleted: z.number().int().meta(int32(BULK_DELETE_MAX, 1)),
});
