import { z } from 'zod';
import { MAX_STOCK } from '../../constants.js';
import { T } from '../../messages.js';
import { messageSchema } from '../common.js';

/** Lines one move may carry. */
export const TRANSFER_LINES_MAX = 500;

/** Texts the transfers route answers with (tests and screens read the same words). */
export const TR = {
  idInvalid: 'productId, from and to must be ids',
  quantityInvalid: T.quantityInvalid(1),
  linesInvalid: `lines must hold 1 to ${TRANSFER_LINES_MAX} moves`,
  sameLocation: 'from and to must be different locations',
  productNotFound: 'Product not found',
  locationNotFound: 'Location not found',
  moved: (units: number, products: number) =>
    `Moved ${units} ${units === 1 ? 'unit' : 'units'} of ${products} ${products === 1 ? 'product' : 'products'}`,
  short: (name: string, path: string, held: number, quantity: number) =>
    `Not enough ${name} at ${path}: ${held} there, cannot move ${quantity}`,
} as const;

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const id = z
  .string({ error: TR.idInvalid })
  .regex(UUID_TEXT, { error: TR.idInvalid })
  .meta({ format: 'uuid', maxLength: 36 });

/** One move: `quantity` units of a product from one location to another. */
const transferLineSchema = z
  .object({
    productId: id,
    from: id,
    to: id,
    quantity: z
      .number({ error: TR.quantityInvalid })
      .int({ error: TR.quantityInvalid })
      .min(1, { error: TR.quantityInvalid })
      .max(MAX_STOCK, { error: TR.quantityInvalid })
      .meta({ format: 'int32' }),
  })
  .refine((line) => line.from.toLowerCase() !== line.to.toLowerCase(), {
    error: TR.sameLocation,
    path: ['to'],
  });
export type TransferLine = z.output<typeof transferLineSchema>;

const transferLinesSchema = z.object({
  lines: z
    .array(transferLineSchema, { error: TR.linesInvalid })
    .min(1, { error: TR.linesInvalid })
    .max(TRANSFER_LINES_MAX, { error: TR.linesInvalid }),
});

/** What the body may be: one move, or `{lines}`: up to TRANSFER_LINES_MAX of them. */
const transferForms = z.union([transferLineSchema, transferLinesSchema]);

const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The body: what the union takes, all made or none. A union refuses a body neither form takes
 * with one issue at the body's root, naming no field; so a refused body is checked again by the
 * form it means (`{lines}` when it has `lines`, else one move), whose issues name their fields.
 */
export const transferSchema = z.preprocess((body, ctx) => {
  if (transferForms.safeParse(body).success) return body;
  const meant = isObject(body) && 'lines' in body ? transferLinesSchema : transferLineSchema;
  for (const { path, message } of meant.safeParse(body).error?.issues ?? []) {
    ctx.addIssue({ code: 'custom', path, message });
  }
  return body;
}, transferForms);

export const transferResponseSchema = messageSchema.extend({
  /** The products moved, with their quantities by location after the move. */
  products: z
    .array(
      z.object({
        id: z.string().meta({ format: 'uuid', maxLength: 36 }),
        locations: z
          .array(
            z.object({
              locationId: z.string().meta({ format: 'uuid', maxLength: 36 }),
              quantity: z.number().int().meta({ format: 'int32', minimum: 1, maximum: MAX_STOCK }),
            }),
          )
          .meta({ maxItems: 1000 }),
      }),
    )
    .meta({ maxItems: TRANSFER_LINES_MAX }),
});
export type TransferResponse = z.output<typeof transferResponseSchema>;
