import { z } from 'zod';
import { MAX_STOCK, PRODUCT_NAME_MAX } from '../constants.js';
import { moneyTotalSchema } from './catalogue.js';
import { int32, timestamp, uuid } from './products.js';
import { pageLimit } from './product-queries.js';

/** The stock reports of a catalogue: its stock over time, what moved, what did not, what to order. */

/** The periods a report covers, in days ending today (UTC). */
export const REPORT_PERIODS = [30, 90, 365] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];
/** Days without a movement after which stock is dead. */
export const DEAD_STOCK_DAYS = 90;
export const TOP_MOVERS_DEFAULT = 10;
export const TOP_MOVERS_MAX = 100;
/** Rows of the dead-stock and to-reorder answers; their CSV files hold every one unless told. */
export const REPORT_ROWS_DEFAULT = 100;
export const REPORT_ROWS_MAX = 1000;

export const REPORT_MESSAGES = {
  daysInvalid: 'days must be 30, 90 or 365',
  moversLimitInvalid: `limit must be a whole number from 1 to ${TOP_MOVERS_MAX}`,
  rowsLimitInvalid: `limit must be a whole number from 1 to ${REPORT_ROWS_MAX}`,
};

const days = z
  .enum(['30', '90', '365'], { error: REPORT_MESSAGES.daysInvalid })
  .default('30')
  .transform((value) => Number(value) as ReportPeriod);

const int64 = { format: 'int64', minimum: 0 };

export const stockOverTimeQuerySchema = z.object({ days });
export type StockOverTimeQuery = z.input<typeof stockOverTimeQuerySchema>;

export const stockOverTimeSchema = z.object({
  days: z
    .array(
      z.object({
        date: z.string().meta({ format: 'date', maxLength: 10 }),
        /** Units in stock at the end of that day (UTC). */
        units: z.number().int().meta(int64),
        /** Those units at today's prices. */
        value: moneyTotalSchema,
      }),
    )
    .meta({ maxItems: 365 }),
});
export type StockOverTime = z.infer<typeof stockOverTimeSchema>;

export const topMoversQuerySchema = z.object({
  days,
  limit: pageLimit(TOP_MOVERS_MAX, TOP_MOVERS_DEFAULT, REPORT_MESSAGES.moversLimitInvalid),
});
export type TopMoversQuery = z.input<typeof topMoversQuerySchema>;

/** A report's rows: products by id and name with the report's figures, at most `maxItems`. */
const productRows = <Figures extends z.ZodRawShape>(figures: Figures, maxItems: number) =>
  z.object({
    products: z
      .array(
        z.object({
          id: uuid,
          name: z.string().meta({ maxLength: PRODUCT_NAME_MAX }),
          ...figures,
        }),
      )
      .meta({ maxItems }),
  });

export const topMoversSchema = productRows(
  {
    unitsIn: z.number().int().meta(int64),
    unitsOut: z.number().int().meta(int64),
    moved: z.number().int().meta(int64),
  },
  TOP_MOVERS_MAX,
);
export type TopMovers = z.infer<typeof topMoversSchema>;

const rowsLimit = pageLimit(REPORT_ROWS_MAX, REPORT_ROWS_DEFAULT, REPORT_MESSAGES.rowsLimitInvalid);

export const reportRowsQuerySchema = z.object({ limit: rowsLimit });
export type ReportRowsQuery = z.input<typeof reportRowsQuerySchema>;

/** The same `limit` for the report's CSV file, checked alike; without one, every row. */
export const reportRowsCsvQuerySchema = z.object({ limit: rowsLimit.removeDefault().optional() });

export const deadStockSchema = productRows(
  {
    stock: z.number().int().meta(int32(MAX_STOCK)),
    /** Price × stock, in dollars. */
    value: moneyTotalSchema,
    /** Its last movement, or its creation when none came after. */
    lastMovedAt: timestamp,
  },
  REPORT_ROWS_MAX,
);
export type DeadStock = z.infer<typeof deadStockSchema>;

export const toReorderSchema = productRows(
  {
    stock: z.number().int().meta(int32(MAX_STOCK)),
    reorderPoint: z.number().int().meta(int32(MAX_STOCK)),
    /** Units on purchase orders placed and not yet received. */
    onOrder: z.number().int().meta(int64),
    /** What brings the stock back over its point, less what is on order. */
    toOrder: z.number().int().meta(int64),
  },
  REPORT_ROWS_MAX,
);
export type ToReorder = z.infer<typeof toReorderSchema>;
