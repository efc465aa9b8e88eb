/*
 * Apart from the other schemas (a folder of its own): only the count screens load these.
 */
import { z } from 'zod';
import { CODE_MAX } from '../../codes.js';
import { MAX_STOCK, PRODUCT_NAME_MAX, TAG_MAX } from '../../constants.js';
import { T } from '../../messages.js';
import { hasNoNul, messageSchema, optionalBody } from '../common.js';
import { PATH_MAX } from '../locations/locations.js';
import { timestamp, uuid } from '../products.js';

const COUNT_STATUSES = ['open', 'review', 'posted', 'cancelled'] as const;
export type CountStatus = (typeof COUNT_STATUSES)[number];
export const COUNT_NAME_MAX = 100;
/** Lines one count may hold: a big warehouse's aisle, product by product and place by place. */
export const COUNT_LINES_MAX = 50_000;
/** Lines a page of a count's answer carries (`limit`), and by default. */
const COUNT_PAGE_MAX = 1000;
export const COUNT_PAGE_DEFAULT = 500;
/** Counts a list answers at most, newest first. */
export const COUNT_LIST_MAX = 100;
/** Places never counted that a review lists by name; `uncounted.total` counts them all. */
export const UNCOUNTED_SHOWN_MAX = 200;

/** Texts the count routes answer with (tests and screens read the same words). */
export const C = {
  nameInvalid: `Count name must be 1 to ${COUNT_NAME_MAX} characters`,
  scopeInvalid:
    'scope must be {kind: "location", locationId}, {kind: "tag", tag} or {kind: "catalogue"}',
  tagInvalid: `tag must be 1 to ${TAG_MAX} characters`,
  idInvalid: 'productId and locationId must be ids',
  countedInvalid: T.quantityInvalid(0),
  cursorInvalid: 'cursor must be one a count answered with',
  limitInvalid: `limit must be a whole number from 1 to ${COUNT_PAGE_MAX}`,
  notFound: 'Count not found',
  productNotFound: 'Product not found',
  locationNotFound: 'Location not found',
  outOfScope: "This product and location are not in the count's scope",
  scopeBusy: 'Another count of this scope is still open: post or cancel it first',
  notOpen: 'This count is no longer open for counting',
  notActive: (status: CountStatus) => `This count is ${status}: it cannot change`,
  tooManyLines: `A count can hold at most ${COUNT_LINES_MAX.toLocaleString('en-US')} lines`,
  tooMuchStock: (name: string) => `Cannot post: ${name} would hold more than ${MAX_STOCK} units`,
  created: 'Count started',
  counted: 'Counted',
  inReview: 'Count ready for review',
  posted: (lines: number) =>
    `Count posted: ${lines} ${lines === 1 ? 'line' : 'lines'} changed stock`,
  cancelled: 'Count cancelled',
} as const;

const countName = z
  .string({ error: C.nameInvalid })
  .trim()
  .min(1, { error: C.nameInvalid })
  .max(COUNT_NAME_MAX, { error: C.nameInvalid })
  .refine(hasNoNul, { error: C.nameInvalid });

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const id = (message: string) =>
  z
    .string({ error: message })
    .regex(UUID_TEXT, { error: message })
    .transform((text) => text.toLowerCase())
    .meta({ format: 'uuid', maxLength: 36 });

/** What a count covers, as a body gives it. */
const scopeInputSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('location'), locationId: id(C.scopeInvalid) }),
    z.object({
      kind: z.literal('tag'),
      tag: z
        .string({ error: C.tagInvalid })
        .trim()
        .min(1, { error: C.tagInvalid })
        .max(TAG_MAX, { error: C.tagInvalid })
        .refine(hasNoNul, { error: C.tagInvalid }),
    }),
    z.object({ kind: z.literal('catalogue') }),
  ],
  { error: C.scopeInvalid },
);
export type CountScopeInput = z.output<typeof scopeInputSchema>;

/** `POST …/counts`: what to count, blind or not; without a name, one is made from the scope. */
export const countCreateSchema = z.object({
  name: countName.optional(),
  scope: scopeInputSchema,
  blind: z.boolean({ error: 'blind must be true or false' }).default(false),
});
export type CountCreate = z.output<typeof countCreateSchema>;

/** `POST …/counts/{countId}/lines`: what was found of a product at a place. */
export const countLineInputSchema = z.object({
  productId: id(C.idInvalid),
  locationId: id(C.idInvalid),
  counted: z
    .number({ error: C.countedInvalid })
    .int({ error: C.countedInvalid })
    .min(0, { error: C.countedInvalid })
    .max(MAX_STOCK, { error: C.countedInvalid })
    .meta({ format: 'int32' }),
  add: z.boolean({ error: 'add must be true or false' }).default(false),
});
export type CountLineInput = z.output<typeof countLineInputSchema>;

/** `POST …/counts/{countId}/post`: whether the places never counted count as 0 (else left alone). */
export const countPostSchema = optionalBody(
  z.object({
    uncountedAsZero: z.boolean({ error: 'uncountedAsZero must be true or false' }).default(false),
  }),
);

export const countParamsSchema = z.object({ countId: uuid });

export const countPageQuerySchema = z.object({
  cursor: z
    .string({ error: C.cursorInvalid })
    .max(200, { error: C.cursorInvalid })
    .regex(/^[0-9a-f-]{36}:[0-9a-f-]{36}$/i, { error: C.cursorInvalid })
    .optional(),
  limit: z.coerce
    .number({ error: C.limitInvalid })
    .int({ error: C.limitInvalid })
    .min(1, { error: C.limitInvalid })
    .max(COUNT_PAGE_MAX, { error: C.limitInvalid })
    .default(COUNT_PAGE_DEFAULT)
    .meta({ format: 'int32' }),
});

const units = z.number().int().meta({ format: 'int64' });
const quantity = z.number().int().meta({ format: 'int32', minimum: 0, maximum: MAX_STOCK });
const productName = z.string().meta({ maxLength: PRODUCT_NAME_MAX });
const code = z.string().meta({ maxLength: CODE_MAX }).nullable();
const person = z.object({ id: uuid, name: z.string().meta({ maxLength: 200 }) }).nullable();

/**
 * A signed sum of money in dollars, added up in integer cents: a number while its JSON text is
 * exactly the amount, else the exact decimal as text.
 */
const moneyText = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .meta({ maxLength: 41 });
const signedMoney = z.xor([z.number(), moneyText]);
/** The same, or null; the null sits inside a branch so the document gives `nullable` a type. */
const signedMoneyOrNull = z.xor([z.number().nullable(), moneyText]);

const scopeSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('location'),
    locationId: uuid,
    path: z.string().meta({ maxLength: PATH_MAX }).nullable(),
  }),
  z.object({ kind: z.literal('tag'), tag: z.string().meta({ maxLength: TAG_MAX }) }),
  z.object({ kind: z.literal('catalogue') }),
]);
export type CountScope = z.output<typeof scopeSchema>;

const countSchema = z.object({
  id: uuid,
  name: z.string().meta({ maxLength: COUNT_NAME_MAX }),
  scope: scopeSchema,
  blind: z.boolean(),
  status: z.enum(COUNT_STATUSES),
  createdBy: person,
  createdAt: timestamp,
  /** Lines counted so far. */
  lines: z.number().int().meta({ format: 'int32', minimum: 0, maximum: COUNT_LINES_MAX }),
});
export type Count = z.output<typeof countSchema>;

/**
 * A line: what was counted of a product at a place. `expected` (the quantity there when the line
 * was first counted) and the variances are left out of a blind count's answers until its review,
 * except to owners and admins.
 */
const countLineSchema = z.object({
  productId: uuid,
  name: productName,
  sku: code,
  barcode: code,
  locationId: uuid,
  counted: quantity,
  expected: quantity.optional(),
  /** counted − expected. */
  variance: units.optional(),
  /** The variance at the product's cost, in dollars; null when it has no cost. */
  varianceAtCost: signedMoneyOrNull.optional(),
  countedBy: person,
  countedAt: timestamp,
});
export type CountLine = z.output<typeof countLineSchema>;

const uncountedSchema = z.object({
  total: z.number().int().meta({ format: 'int64', minimum: 0 }),
  /** The first of them, by product and place. */
  places: z
    .array(
      z.object({
        productId: uuid,
        name: productName,
        locationId: uuid,
        expected: quantity.optional(),
      }),
    )
    .meta({ maxItems: UNCOUNTED_SHOWN_MAX }),
});

/** What the differences add up to, over every line. */
const summarySchema = z.object({
  lines: z.number().int().meta({ format: 'int32', minimum: 0 }),
  varianceUnits: units,
  /** Σ variance × cost, in dollars (lines of products without a cost left out). */
  varianceValue: signedMoney,
  /** Σ |variance| × cost: what the differences are worth whichever way they go. */
  differenceValue: signedMoney,
});

export const countsResponseSchema = z.object({
  counts: z.array(countSchema).meta({ maxItems: COUNT_LIST_MAX }),
});

/** A count with a page of its lines; the summary and the places never counted where shown. */
export const countDetailSchema = z.object({
  count: countSchema,
  /** Whether this answer leaves `expected` out (a blind count before its review). */
  expectedHidden: z.boolean(),
  lines: z.array(countLineSchema).meta({ maxItems: COUNT_PAGE_MAX }),
  nextCursor: z.string().meta({ maxLength: 73 }).nullable(),
  summary: summarySchema.optional(),
  uncounted: uncountedSchema.optional(),
});
export type CountDetail = z.output<typeof countDetailSchema>;

export const countSavedSchema = messageSchema.extend({ count: countSchema });
export const countLineSavedSchema = messageSchema.extend({ line: countLineSchema });
export const countReviewedSchema = messageSchema.extend(countDetailSchema.shape);
export const countPostedSchema = messageSchema.extend({
  count: countSchema,
  /** Lines whose difference moved stock. */
  movements: z.number().int().meta({ format: 'int32', minimum: 0 }),
});
