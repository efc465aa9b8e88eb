import { z } from 'zod';
import {
  IMPORT_ERRORS_MAX,
  IMPORT_MAX_ROWS,
  IMPORT_PREVIEW_ROWS,
  MAX_STOCK,
  PRODUCT_NAME_MAX,
  STOCK_IMPORT_COLUMNS_TEXT,
} from '../../constants.js';
import { T, V } from '../../messages.js';
import { importErrorSchema } from '../catalogue.js';
import { ANSWER_LIMITS } from '../common.js';
import { int32, uuid } from '../products.js';
import { PATH_MAX } from './locations.js';

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const rows = (n: number) => count(n, 'row', 'rows');

/** Texts the stock-by-location import answers with (tests and screens read the same words). */
export const SI = {
  empty: `The CSV file is empty: its first line must name the columns (${STOCK_IMPORT_COLUMNS_TEXT})`,
  noProductColumn: 'The header row needs an "id", "sku" or "barcode" column',
  noProductKey: "Give the product's id, SKU or barcode",
  productNotFound: 'No product of this catalogue has this id, SKU or barcode',
  noLocation: "Give the location's path or code",
  locationNotFound: 'No location of this catalogue has this path or code',
  pathAmbiguous: (path: string) =>
    `More than one location has the path ${path}: give the location's code instead`,
  quantityInvalid: T.quantityInvalid(0),
  aboveMax: `The product's stock would be above ${MAX_STOCK}`,
  repeated: (line: number) => `Line ${line} of the file already sets this product at this location`,
  checked: (changed: number, unchanged: number) =>
    `${rows(changed)} would change the stock, ${rows(unchanged)} would leave it as it is`,
  checkedWithErrors: (changed: number, bad: number) =>
    `${rows(changed)} would change the stock; ${count(bad, 'row has', 'rows have')} errors`,
  done: (changed: number, unchanged: number) =>
    `Stock counted: ${rows(changed)} changed, ${rows(unchanged)} unchanged`,
  failed: (bad: number) => `Nothing was counted: ${count(bad, 'row has', 'rows have')} errors`,
} as const;

/** `true` or `false`; absent is false. */
export const stockImportQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false'], { error: V.dryRunInvalid })
    .default('false')
    .transform((value) => value === 'true'),
});

/** A row that changes a quantity: where, and from what to what. */
const stockImportChangeSchema = z.object({
  line: z.number().int().meta(int32(MAX_STOCK, 1)),
  productId: uuid,
  name: z.string().meta({ maxLength: PRODUCT_NAME_MAX }),
  location: z.string().meta({ maxLength: PATH_MAX }),
  before: z.number().int().meta(int32(MAX_STOCK)),
  after: z.number().int().meta(int32(MAX_STOCK)),
});
export type StockImportChange = z.infer<typeof stockImportChangeSchema>;

/**
 * The answer of a stock-by-location import, dry run or not: the rows that change a quantity (or
 * would), those that leave it as it is, the errors, and on a dry run the first changes.
 */
export const stockImportReportSchema = z.object({
  message: z.string().meta({ maxLength: ANSWER_LIMITS.message }),
  changed: z.number().int().meta(int32(IMPORT_MAX_ROWS)),
  unchanged: z.number().int().meta(int32(IMPORT_MAX_ROWS)),
  errors: z.array(importErrorSchema).meta({ maxItems: IMPORT_ERRORS_MAX }),
  changes: z.array(stockImportChangeSchema).meta({ maxItems: IMPORT_PREVIEW_ROWS }).optional(),
});
export type StockImportReport = z.infer<typeof stockImportReportSchema>;
