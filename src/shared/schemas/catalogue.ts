import { z } from 'zod';
import {
  BULK_DELETE_MAX,
  MAX_STOCK,
  MOVEMENT_PAGE_DEFAULT,
  MOVEMENT_PAGE_MAX,
  MOVEMENT_SOURCES,
  STOCK_NOTE_MAX,
} from '../constants.js';
import { V } from '../messages.js';
import { hasNoNul } from './common.js';
import { pageLimit, productListQuerySchema } from './products.js';

/** The catalogue operations beyond one product at a time (contract section 7). */

/** What the CSV export takes: the list's search, order and stock filter. */
export const productExportQuerySchema = productListQuerySchema.pick({
  q: true,
  sort: true,
  stock: true,
});
export type ProductExportQuery = z.input<typeof productExportQuerySchema>;

/** What the summary takes: the list's search and stock filter (the order changes nothing). */
export const productSummaryQuerySchema = productListQuerySchema.pick({ q: true, stock: true });
export type ProductSummaryQuery = z.input<typeof productSummaryQuerySchema>;

/** The products a list shows under a filter: how many, their units, and price × stock in dollars. */
export const productSummarySchema = z.object({
  count: z.number().int(),
  units: z.number().int(),
  /** Dollars, summed in integer cents, so exact to the cent. */
  value: z.number(),
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
  /** Adds `preview` (the first valid rows as they would be stored) and `rows` to the report. */
  preview: queryFlag(V.previewInvalid),
});
export type ImportQuery = z.input<typeof importQuerySchema>;

/** One problem of an import: the CSV line where its record starts (the header is line 1). */
export const importErrorSchema = z.object({
  line: z.number().int(),
  /** The column (`name`, `price`, `stock`, `description`), or `file` for the file as a whole. */
  path: z.string(),
  message: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

/** A valid row as the API would store it. */
export const importPreviewRowSchema = z.object({
  line: z.number().int(),
  name: z.string(),
  price: z.number(),
  stock: z.number().int(),
  description: z.string(),
});
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;

/**
 * The answer of an import, dry run or not. `created`: the products created, so 0 when any row has
 * an error (an import creates every row or none); on a dry run, the rows that pass the checks.
 */
export const importReportSchema = z.object({
  message: z.string(),
  created: z.number().int(),
  errors: z.array(importErrorSchema),
  /** Only with `preview=true`: the data rows read, and the first valid ones. */
  rows: z.number().int().optional(),
  preview: z.array(importPreviewRowSchema).optional(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const stockAdjustmentSchema = z.object({
  delta: z
    .number({ error: V.deltaInvalid })
    .int({ error: V.deltaInvalid })
    .min(-MAX_STOCK, { error: V.deltaInvalid })
    .max(MAX_STOCK, { error: V.deltaInvalid })
    .refine((delta) => delta !== 0, { error: V.deltaInvalid }),
  /** Why the stock changed; blank is none. */
  note: z
    .string({ error: V.noteInvalid })
    .trim()
    .max(STOCK_NOTE_MAX, { error: V.noteInvalid })
    .refine(hasNoNul, { error: V.textNul })
    .nullish()
    .transform((note) => (note ? note : null)),
});
export type StockAdjustment = z.input<typeof stockAdjustmentSchema>;

export const stockMovementSchema = z.object({
  id: z.string(),
  productId: z.string(),
  createdAt: z.string(),
  oldStock: z.number().int(),
  newStock: z.number().int(),
  delta: z.number().int(),
  source: z.enum(MOVEMENT_SOURCES),
  note: z.string().nullable(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;

export const movementsQuerySchema = z.object({
  limit: pageLimit(MOVEMENT_PAGE_MAX, MOVEMENT_PAGE_DEFAULT, V.movementLimitInvalid),
  cursor: z.string().max(100, { error: V.cursorInvalid }).optional(),
});
export type MovementsQuery = z.input<typeof movementsQuerySchema>;

/** Newest first; pass `nextCursor` back as `cursor` for older ones (null on the last page). */
export const movementsResponseSchema = z.object({
  movements: z.array(stockMovementSchema),
  nextCursor: z.string().nullable(),
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
  message: z.string(),
  deleted: z.number().int(),
});
