/*
 * Apart from the other schemas (a folder of its own): only the purchasing screens need these.
 */
import { z } from 'zod';
import { MAX_PRICE } from '../../constants.js';
import { EMAIL_MAX, hasNoNul, messageSchema } from '../common.js';
import { isBlank, parseCostToCents } from '../money.js';
import { productSupplierSchema, uuid } from '../products.js';

export const SUPPLIER_NAME_MAX = 100;
const SUPPLIER_PHONE_MAX = 40;
const SUPPLIER_NOTES_MAX = 2000;
/** Suppliers one catalogue may have. */
export const SUPPLIERS_MAX = 1000;
/** Suppliers one product may name. */
export const PRODUCT_SUPPLIERS_MAX = 20;
const SUPPLIER_SKU_MAX = 64;

/** Texts the API answers with (tests and screens read the same words). */
export const SUP = {
  nameRequired: 'Supplier name is required',
  nameMax: `Supplier name must be at most ${SUPPLIER_NAME_MAX} characters`,
  emailInvalid: 'Supplier e-mail must be a valid e-mail address',
  phoneInvalid: `Phone must be at most ${SUPPLIER_PHONE_MAX} characters`,
  notesInvalid: `Notes must be at most ${SUPPLIER_NOTES_MAX} characters`,
  textNul: 'Text must not contain the NUL character',
  notFound: 'Supplier not found',
  nameTaken: 'Another supplier already has this name',
  tooMany: `A catalogue can have at most ${SUPPLIERS_MAX.toLocaleString('en-US')} suppliers`,
  hasOrders: 'This supplier has purchase orders: it cannot be deleted',
  created: 'Supplier created',
  updated: 'Supplier updated',
  deleted: 'Supplier deleted',
  listInvalid: `suppliers must be a list of at most ${PRODUCT_SUPPLIERS_MAX} suppliers`,
  supplierIdInvalid: 'supplierId must be a supplier id',
  supplierSkuInvalid: `supplierSku must be at most ${SUPPLIER_SKU_MAX} characters`,
  repeated: 'A supplier can be named only once',
  onePreferred: 'At most one supplier can be preferred',
  productSuppliersSaved: 'Suppliers saved',
  productNotFound: 'Product not found',
} as const;

const optionalText = (max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(max, { error: message })
    .refine(hasNoNul, { error: SUP.textNul })
    .nullable()
    .transform((text) => (text === '' ? null : text))
    .meta({ maxLength: max });

const supplierNameSchema = z
  .string({ error: SUP.nameRequired })
  .trim()
  .min(1, { error: SUP.nameRequired })
  .max(SUPPLIER_NAME_MAX, { error: SUP.nameMax })
  .refine(hasNoNul, { error: SUP.textNul })
  .meta({ maxLength: SUPPLIER_NAME_MAX });

const supplierEmailSchema = z
  .string({ error: SUP.emailInvalid })
  .trim()
  .max(EMAIL_MAX, { error: SUP.emailInvalid })
  .refine((text) => text === '' || z.email().safeParse(text).success, { error: SUP.emailInvalid })
  .nullable()
  .transform((text) => (text === '' || text === null ? null : text.toLowerCase()))
  .meta({ format: 'email', maxLength: EMAIL_MAX });

const supplierFields = {
  email: supplierEmailSchema,
  phone: optionalText(SUPPLIER_PHONE_MAX, SUP.phoneInvalid),
  notes: optionalText(SUPPLIER_NOTES_MAX, SUP.notesInvalid),
};

/** `POST …/suppliers`: a name, and optionally an e-mail (where orders are sent), phone and notes. */
export const supplierCreateSchema = z.object({
  name: supplierNameSchema,
  email: supplierFields.email.optional().transform((value) => value ?? null),
  phone: supplierFields.phone.optional().transform((value) => value ?? null),
  notes: supplierFields.notes.optional().transform((value) => value ?? null),
});
export type SupplierCreate = z.output<typeof supplierCreateSchema>;

/** `PATCH …/suppliers/{supplierId}`: any of the fields; null or '' clears an optional one. */
export const supplierUpdateSchema = z.object({
  name: supplierNameSchema.optional(),
  email: supplierFields.email.optional(),
  phone: supplierFields.phone.optional(),
  notes: supplierFields.notes.optional(),
});
export type SupplierUpdate = z.output<typeof supplierUpdateSchema>;

export const supplierParamsSchema = z.object({ supplierId: uuid });

const supplierSchema = z.object({
  id: uuid,
  name: z.string().meta({ maxLength: SUPPLIER_NAME_MAX }),
  email: z.string().meta({ format: 'email', maxLength: EMAIL_MAX }).nullable(),
  phone: z.string().meta({ maxLength: SUPPLIER_PHONE_MAX }).nullable(),
  notes: z.string().meta({ maxLength: SUPPLIER_NOTES_MAX }).nullable(),
});
export type Supplier = z.output<typeof supplierSchema>;

export const suppliersResponseSchema = z.object({
  suppliers: z.array(supplierSchema).meta({ maxItems: SUPPLIERS_MAX }),
});
export const supplierResponseSchema = z.object({ supplier: supplierSchema });
export const supplierSavedSchema = messageSchema.extend({ supplier: supplierSchema });

/** Money as the API takes it (dollars, at most 2 decimals, 0 allowed): integer cents. */
const moneyCents = (required: boolean) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      if (!required && (value === undefined || isBlank(value))) return null;
      const result = parseCostToCents(value);
      if (typeof result === 'number') return result;
      ctx.addIssue({ code: 'custom', message: result.error });
      return z.NEVER;
    })
    .meta({ type: 'number', minimum: 0, maximum: MAX_PRICE });

const productSupplierLineSchema = z.object({
  supplierId: z
    .string({ error: SUP.supplierIdInvalid })
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
      error: SUP.supplierIdInvalid,
    })
    .transform((id) => id.toLowerCase())
    .meta({ format: 'uuid', maxLength: 36 }),
  supplierSku: optionalText(SUPPLIER_SKU_MAX, SUP.supplierSkuInvalid)
    .optional()
    .transform((value) => value ?? null),
  cost: moneyCents(false),
  preferred: z.boolean().optional().default(false),
});

/** `PUT …/products/{id}/suppliers`: the product's suppliers, all of them (an empty list: none). */
export const productSuppliersBodySchema = z.object({
  suppliers: z
    .array(productSupplierLineSchema, { error: SUP.listInvalid })
    .max(PRODUCT_SUPPLIERS_MAX, { error: SUP.listInvalid })
    .superRefine((lines, ctx) => {
      const ids = lines.map((line) => line.supplierId);
      if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: SUP.repeated });
      if (lines.filter((line) => line.preferred).length > 1)
        ctx.addIssue({ code: 'custom', message: SUP.onePreferred });
    }),
});
export type ProductSuppliersBody = z.output<typeof productSuppliersBodySchema>;

export const productSuppliersResponseSchema = messageSchema.extend({
  suppliers: z.array(productSupplierSchema).meta({ maxItems: PRODUCT_SUPPLIERS_MAX }),
});
