/*
 * Apart from the other schemas (a folder of its own): only the purchasing screens need these.
 */
import { z } from 'zod';
import { MAX_PRICE, MAX_STOCK } from '../../constants.js';
import { T } from '../../messages.js';
import { hasNoNul, isCalendarDay, messageSchema } from '../common.js';
import { isBlank, parseCostToCents } from '../money.js';
import { int32, timestamp, uuid } from '../products.js';

/** Lines one purchase order may carry. */
export const PURCHASE_ORDER_LINES_MAX = 500;
const PO_NOTES_MAX = 2000;
/** Orders one page of the list holds. */
export const PURCHASE_ORDERS_PAGE_MAX = 100;

const PURCHASE_ORDER_STATUSES = [
  'draft',
  'ordered',
  'partially_received',
  'received',
  'cancelled',
] as const;
export type PurchaseOrderStatus = (typeof PURCHASE_ORDER_STATUSES)[number];

/** `PO-0001`: the catalogue's order number, four digits at least. */
export const poNumber = (number: number) => `PO-${String(number).padStart(4, '0')}`;

/** Texts the API answers with (tests and screens read the same words). */
export const PO = {
  idInvalid: 'Must be an id',
  quantityInvalid: T.quantityInvalid(1),
  linesInvalid: `lines must hold at most ${PURCHASE_ORDER_LINES_MAX} products`,
  receiptLinesInvalid: `lines must hold 1 to ${PURCHASE_ORDER_LINES_MAX} products`,
  repeated: 'A product can be on an order only once',
  expectedAtInvalid: 'expectedAt must be an ISO date or date and time, or null',
  notesInvalid: `Notes must be at most ${PO_NOTES_MAX} characters`,
  textNul: 'Text must not contain the NUL character',
  statusInvalid: 'status must be ordered or cancelled',
  statusFilterInvalid: `status must be one of ${PURCHASE_ORDER_STATUSES.join(', ')}`,
  nothingToChange: 'Send lines, expectedAt, notes or status',
  notFound: 'Purchase order not found',
  supplierNotFound: 'Supplier not found',
  productNotFound: 'Product not found',
  locationNotFound: 'Location not found',
  notOnOrder: (name: string) => `${name} is not on this order`,
  notDraft: 'Only a draft can be edited',
  emptyOrder: 'An order needs at least one line',
  cannotMove: (from: PurchaseOrderStatus, to: string) =>
    `A purchase order that is ${from.replace('_', ' ')} cannot be ${to}`,
  notReceivable: 'Only an ordered purchase order can be received against',
  notDeletable: 'Only a draft, or a cancelled order nothing was received against, can be deleted',
  notSendable: 'Only an ordered purchase order can be sent',
  noSupplierEmail: 'The supplier has no e-mail address',
  tooMuch: 'Stock would go above the most a product can hold',
  created: 'Purchase order created',
  updated: 'Purchase order updated',
  deleted: 'Purchase order deleted',
  drafted: (count: number) =>
    count === 0
      ? 'Nothing to order: no product to reorder has a preferred supplier, or it is on order'
      : `${count} ${count === 1 ? 'draft' : 'drafts'} made`,
  received: (units: number) => `Received ${units} ${units === 1 ? 'unit' : 'units'}`,
  receivedOver: (units: number, over: string[]) =>
    `Received ${units} ${units === 1 ? 'unit' : 'units'}; more than ordered: ${over.join(', ')}`,
  sent: 'Purchase order sent to the supplier',
  alreadySent: 'Purchase order already sent',
  mailBudget: (seconds: number) =>
    `The supplier's address has had as many mails as it may take for now: try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`,
} as const;

const idSchema = z
  .string({ error: PO.idInvalid })
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: PO.idInvalid })
  .transform((id) => id.toLowerCase())
  .meta({ format: 'uuid', maxLength: 36 });

const quantitySchema = z
  .number({ error: PO.quantityInvalid })
  .int({ error: PO.quantityInvalid })
  .min(1, { error: PO.quantityInvalid })
  .max(MAX_STOCK, { error: PO.quantityInvalid })
  .meta({ format: 'int32' });

/** A unit cost in dollars (0 allowed, 2 decimals at most), as integer cents; absent: null. */
const unitCostSchema = z
  .unknown()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || isBlank(value)) return null;
    const result = parseCostToCents(value);
    if (typeof result === 'number') return result;
    ctx.addIssue({ code: 'custom', message: result.error });
    return z.NEVER;
  })
  .meta({ type: 'number', minimum: 0, maximum: MAX_PRICE });

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const expectedAtSchema = z
  .string({ error: PO.expectedAtInvalid })
  .max(40, { error: PO.expectedAtInvalid })
  .regex(ISO_DATE, { error: PO.expectedAtInvalid })
  .transform((text, ctx) => {
    const at = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
    if (Number.isNaN(at) || !isCalendarDay(text)) {
      ctx.addIssue({ code: 'custom', message: PO.expectedAtInvalid });
      return z.NEVER;
    }
    return at;
  })
  .nullable()
  .meta({ format: 'date-time' });

const notesSchema = z
  .string({ error: PO.notesInvalid })
  .trim()
  .max(PO_NOTES_MAX, { error: PO.notesInvalid })
  .refine(hasNoNul, { error: PO.textNul })
  .nullable()
  .transform((text) => (text === '' ? null : text));

/** An order's line as written: a product, how many, and at what unit cost (absent: the supplier's, else the product's). */
const orderLineInputSchema = z.object({
  productId: idSchema,
  quantity: quantitySchema,
  unitCost: unitCostSchema,
});
export type OrderLineInput = z.output<typeof orderLineInputSchema>;

const orderLinesSchema = z
  .array(orderLineInputSchema, { error: PO.linesInvalid })
  .max(PURCHASE_ORDER_LINES_MAX, { error: PO.linesInvalid })
  .superRefine((lines, ctx) => {
    const ids = lines.map((line) => line.productId);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: PO.repeated });
  });

/** `POST …/purchase-orders`: a draft for a supplier. */
export const purchaseOrderCreateSchema = z.object({
  supplierId: idSchema,
  expectedAt: expectedAtSchema.optional().transform((at) => at ?? null),
  notes: notesSchema.optional().transform((notes) => notes ?? null),
  lines: orderLinesSchema.optional().transform((lines) => lines ?? []),
});
export type PurchaseOrderCreate = z.output<typeof purchaseOrderCreateSchema>;

/** `PATCH …/purchase-orders/{poId}`: a draft's lines, date or notes, or a new status. */
export const purchaseOrderUpdateSchema = z
  .object({
    lines: orderLinesSchema.optional(),
    expectedAt: expectedAtSchema.optional(),
    notes: notesSchema.optional(),
    status: z.enum(['ordered', 'cancelled'], { error: PO.statusInvalid }).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    error: PO.nothingToChange,
  });
export type PurchaseOrderUpdate = z.output<typeof purchaseOrderUpdateSchema>;

/** `POST …/purchase-orders/{poId}/receipts`: what came in, into one location. */
export const receiptSchema = z.object({
  locationId: idSchema,
  lines: z
    .array(z.object({ productId: idSchema, quantity: quantitySchema }), {
      error: PO.receiptLinesInvalid,
    })
    .min(1, { error: PO.receiptLinesInvalid })
    .max(PURCHASE_ORDER_LINES_MAX, { error: PO.receiptLinesInvalid }),
});
export type Receipt = z.output<typeof receiptSchema>;

export const purchaseOrderParamsSchema = z.object({ poId: uuid });
export const purchaseOrderListQuerySchema = z.object({
  status: z.enum(PURCHASE_ORDER_STATUSES, { error: PO.statusFilterInvalid }).optional(),
});

const money = z.number().meta({ minimum: 0 });

const purchaseOrderLineSchema = z.object({
  productId: uuid,
  /** The product's name now (as it was when ordered, once the product is deleted: null). */
  name: z.string().meta({ maxLength: 200 }).nullable(),
  sku: z.string().meta({ maxLength: 100 }).nullable(),
  /** The supplier's code for it, from the product's suppliers. */
  supplierSku: z.string().meta({ maxLength: 64 }).nullable(),
  quantity: z.number().int().meta(int32(MAX_STOCK, 1)),
  /** In dollars. */
  unitCost: money.meta({ maximum: MAX_PRICE }),
  received: z.number().int().meta(int32(MAX_STOCK)),
});

const purchaseOrderFields = {
  id: uuid,
  /** `PO-0001`, per catalogue. */
  number: z.string().meta({ maxLength: 16 }),
  supplierId: uuid,
  supplierName: z.string().meta({ maxLength: 100 }),
  status: z.enum(PURCHASE_ORDER_STATUSES),
  expectedAt: timestamp.nullable(),
  notes: z.string().meta({ maxLength: PO_NOTES_MAX }).nullable(),
  /** When it was e-mailed to the supplier; null until then. */
  sentAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** Units ordered, and what they cost in dollars (Σ quantity × unit cost). */
  totalQuantity: z.number().int().meta({ format: 'int64', minimum: 0 }),
  totalCost: money,
};

const purchaseOrderSchema = z.object({
  ...purchaseOrderFields,
  lines: z.array(purchaseOrderLineSchema).meta({ maxItems: PURCHASE_ORDER_LINES_MAX }),
});
export type PurchaseOrder = z.output<typeof purchaseOrderSchema>;
const purchaseOrderSummarySchema = z.object({
  ...purchaseOrderFields,
  lineCount: z.number().int().meta(int32(PURCHASE_ORDER_LINES_MAX)),
});
export type PurchaseOrderSummary = z.output<typeof purchaseOrderSummarySchema>;

export const purchaseOrdersResponseSchema = z.object({
  purchaseOrders: z.array(purchaseOrderSummarySchema).meta({ maxItems: PURCHASE_ORDERS_PAGE_MAX }),
});
export const purchaseOrderResponseSchema = z.object({ purchaseOrder: purchaseOrderSchema });
export const purchaseOrderSavedSchema = messageSchema.extend({
  purchaseOrder: purchaseOrderSchema,
});
export const purchaseOrdersDraftedSchema = messageSchema.extend({
  purchaseOrders: z.array(purchaseOrderSchema).meta({ maxItems: 1000 }),
});
export const receiptResponseSchema = messageSchema.extend({
  purchaseOrder: purchaseOrderSchema,
  /** Lines that came in past what was ordered: accepted, and said. */
  overReceived: z
    .array(
      z.object({
        productId: uuid,
        ordered: z.number().int().meta(int32(MAX_STOCK)),
        received: z.number().int().meta({ format: 'int64', minimum: 0 }),
      }),
    )
    .meta({ maxItems: PURCHASE_ORDER_LINES_MAX }),
});
