import { createHash } from 'node:crypto';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMAGE_MAX_BYTES,
  MAX_PRICE,
  MAX_STOCK,
  MIN_PRICE,
  TAG_MAX,
  TAGS_MAX,
} from '../../../../shared/constants.js';
import { CODE_MAX } from '../../../../shared/codes.js';
import { IMAGE_MAX_MB_TEXT, IMAGE_MAX_PIXELS_TEXT, M } from '../../../../shared/messages.js';
import {
  productCreateSchema,
  productMutationResponseSchema,
  productUpdateSchema,
  type ProductCreate,
  type ProductUpdate,
} from '../../../../shared/schemas/products.js';
import { productIdParamsSchema } from '../../../../shared/schemas/product-queries.js';
import { idempotentWriteHeadersSchema } from '../../../../shared/schemas/idempotency.js';
import { REORDER_POINT_MAX, REORDER_QUANTITY_MAX } from '../../../../shared/reorder.js';
import { notFound } from '../../../lib/http-error.js';
import { sendCatalogueWrite, type WriteOutcome } from '../../writes/index.js';
import { changedFields, replacedPicture } from '../changes.js';
import type { NewProduct, ProductChanges } from '../rows.js';
import { uploadStage } from '../uploads.js';
import { insertProduct, updateProduct } from '../writes.js';
import { actionConfig, currentCatalogue } from '../../catalogues/index.js';
import { errorResponses } from '../../../http/route-options.js';
import type { ProductsContext } from './context.js';
import { productDocs } from './route-options.js';
import { bodyCheckedInHandler, readProductInput } from './form.js';
import { named } from '../../../http/plugin-name.js';

const IMAGE_TEXT = `JPEG, PNG, WebP, AVIF or GIF, at most ${IMAGE_MAX_MB_TEXT} and ${IMAGE_MAX_PIXELS_TEXT}`;

/** A form's fields as the writes name them (a price and a cost in cents), for a create or an edit. */
function writeFields(data: ProductCreate): Omit<NewProduct, 'image'>;
function writeFields(data: ProductUpdate): Omit<ProductChanges, 'image'>;
function writeFields(data: ProductUpdate): Omit<ProductChanges, 'image'> {
  return {
    name: data.name,
    description: data.description,
    priceCents: data.price,
    stock: data.stock,
    sku: data.sku,
    barcode: data.barcode,
    tags: data.tags,
    costCents: data.cost,
    reorderPoint: data.reorderPoint,
    reorderQuantity: data.reorderQuantity,
  };
}

/** What the server reads of a text field: something besides white space. */
const NOT_BLANK = '\\S';
/** Longest price or stock text documented: ample for every value the server takes. */
const NUMBER_TEXT_MAX = 24;

/** An optional code as the document shows it; the shared schema checks it in the handler. */
const codeText = (rule: string) => z.string().max(CODE_MAX).nullable().optional().describe(rule);

/** The text fields, as the shared schema checks them (lengths included). */
const textFields = {
  name: productCreateSchema.shape.name.meta({ pattern: NOT_BLANK }),
  description: productCreateSchema.shape.description.meta({ pattern: NOT_BLANK }),
  sku: codeText(
    `Optional, ${CODE_MAX} printable characters at most, unique in your catalogue whatever the case (409 when another product has it, or a location has it as its code). Empty or null: no SKU (an edit clears it).`,
  ),
  barcode: codeText(
    `Optional, ${CODE_MAX} printable ASCII characters at most, unique in your catalogue (409 when another product has it, or a location has it as its code). 8, 12, 13 or 14 digits is a GTIN whose check digit must be right; a UPC-A and its EAN-13 form are one code, stored without padding zeros. Empty or null: no barcode (an edit clears it).`,
  ),
};

/** Tags as the document shows them; the shared schema trims them and drops repeats. */
const tagsDoc = z
  .array(z.string().min(1).max(TAG_MAX))
  .max(TAGS_MAX)
  .describe(
    `At most ${TAGS_MAX} tags of 1 to ${TAG_MAX} characters once trimmed; repeats (case ignored) are kept once`,
  );

/**
 * A JSON body as the OpenAPI document shows it: a price is a number of dollars, a stock a whole
 * number. The shared schema does the checking (in the handler, below), and for compatibility with
 * form posts it also reads numeric text there; the document states the JSON types.
 */
const jsonBody = z.object({
  ...textFields,
  price: z
    .number()
    .min(MIN_PRICE)
    .max(MAX_PRICE)
    .describe('Dollars with at most 2 decimals, e.g. 19.99'),
  stock: z.number().int().min(0).max(MAX_STOCK).meta({ format: 'int32' }),
  tags: tagsDoc.optional(),
  cost: z
    .number()
    .min(0)
    .max(MAX_PRICE)
    .nullable()
    .optional()
    .describe('What a unit cost, in dollars with at most 2 decimals; null clears it'),
  reorderPoint: z
    .number()
    .int()
    .min(0)
    .max(REORDER_POINT_MAX)
    .nullable()
    .optional()
    .meta({ format: 'int32' })
    .describe(
      "The product's own reorder point; null (or absent on creation) uses its catalogue's. It is to reorder at or below it.",
    ),
  reorderQuantity: z
    .number()
    .int()
    .min(1)
    .max(REORDER_QUANTITY_MAX)
    .nullable()
    .optional()
    .meta({ format: 'int32' })
    .describe(
      'How many to order when the reorder point is reached (purchase order drafts); null clears it.',
    ),
});

/** A multipart body: every field is text, and the picture a file part. */
const multipartBody = z.object({
  ...textFields,
  price: z
    .string()
    .regex(/^[0-9]+(?:\.[0-9]{1,2}0*)?$/)
    .max(NUMBER_TEXT_MAX)
    .describe(`Dollars with at most 2 decimals, ${MIN_PRICE} to ${MAX_PRICE}, e.g. 19.99`),
  stock: z
    .string()
    .regex(/^[0-9]+(?:\.0+)?$/)
    .max(NUMBER_TEXT_MAX)
    .describe(`A whole number, 0 to ${MAX_STOCK}`),
  tags: tagsDoc
    .optional()
    .describe(
      `One field per tag, repeated (at most ${TAGS_MAX}); one empty field alone clears the tags`,
    ),
  cost: z
    .string()
    .regex(/^(?:[0-9]+(?:\.[0-9]{1,2}0*)?)?$/)
    .max(NUMBER_TEXT_MAX)
    .optional()
    .describe('Dollars with at most 2 decimals, 0 or more; empty clears it'),
  reorderPoint: z
    .string()
    .regex(/^(?:[0-9]+(?:\.0+)?)?$/)
    .max(NUMBER_TEXT_MAX)
    .optional()
    .describe(`A whole number, 0 to ${REORDER_POINT_MAX}; empty uses the catalogue's point`),
  reorderQuantity: z
    .string()
    .regex(/^(?:[0-9]+(?:\.0+)?)?$/)
    .max(NUMBER_TEXT_MAX)
    .optional()
    .describe(`A whole number, 1 to ${REORDER_QUANTITY_MAX}; empty clears it`),
  image: z
    .string()
    .meta({ format: 'binary', maxLength: IMAGE_MAX_BYTES })
    .optional()
    .describe(IMAGE_TEXT),
});

/** The bodies by media type: Fastify and the OpenAPI document both take this form. */
/** What tells two uploads apart under one Idempotency-Key, without keeping them. */
const digest = (image: Buffer | undefined) =>
  image && createHash('sha256').update(image).digest('base64url');

const bodies = (partial: boolean) => ({
  content: {
    'multipart/form-data': { schema: partial ? multipartBody.partial() : multipartBody },
    'application/json': { schema: partial ? jsonBody.partial() : jsonBody },
  },
});

export const writeRoutes = named<ProductsContext>('write-routes', async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Scoped to this plugin: only these two routes. The body schema below only documents it.
  app.setValidatorCompiler(bodyCheckedInHandler);

  app.post(
    '/',
    {
      ...actionConfig(app, 'editProducts'),
      schema: {
        ...productDocs,
        operationId: 'createProduct',
        summary: 'Create a product, with an optional image',
        description:
          'The image is decoded and re-encoded (WebP, at most 1600 px, metadata removed) with a thumbnail.',
        headers: idempotentWriteHeadersSchema,
        body: bodies(false),
        response: { 201: productMutationResponseSchema, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const { data, image } = await readProductInput(request, productCreateSchema);
      return sendCatalogueWrite(
        { request, reply },
        {
          idempotency: [data, digest(image)],
          stage: uploadStage(context.images, image),
        },
        async (w, stored): Promise<WriteOutcome> => {
          const row = await insertProduct(w, { ...writeFields(data), image: stored ?? null });
          const product = context.present.product(row);
          return {
            answer: { status: 201, body: { message: M.productCreated, product } },
            live: { kind: 'product.created', data: { product } },
            activity: { kind: 'product.created', details: { product: row } },
          };
        },
      );
    },
  );

  app.patch(
    '/:id',
    {
      ...actionConfig(app, 'editProducts'),
      schema: {
        ...productDocs,
        operationId: 'updateProduct',
        summary: 'Change some fields of a product, or its image',
        description: 'Every field is optional. A new image replaces the old one, whose files go.',
        params: productIdParamsSchema,
        headers: idempotentWriteHeadersSchema,
        body: bodies(true),
        response: { 200: productMutationResponseSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { id } = request.params;
      const exists = async () => {
        if (!(await context.repository.find(catalogue.id, id))) throw notFound(M.productNotFound);
      };
      // An unknown id is answered before the body is read; with a key the body is read first,
      // since a replay answers whatever became of the product since.
      const keyed = request.headers['idempotency-key'] !== undefined;
      if (!keyed) await exists();
      const { data, image } = await readProductInput(request, productUpdateSchema);
      return sendCatalogueWrite(
        { request, reply },
        {
          idempotency: [id, data, digest(image)],
          stage: uploadStage(context.images, image, keyed ? exists : undefined),
        },
        async (w, stored): Promise<WriteOutcome> => {
          const done = await updateProduct(w, id, { ...writeFields(data), image: stored });
          // Deleted meanwhile: the new files have nothing to belong to (the stage removes them).
          if (!done) throw notFound(M.productNotFound);
          const product = context.present.product(done.row);
          const changes = changedFields(done.before, done.row);
          const answer = { status: 200, body: { message: M.productUpdated, product } } as const;
          // The values it has already: no entry, no webhook, no live event (as a location's).
          if (Object.keys(changes).length === 0) return { answer, unchanged: true };
          // A replaced picture's files stay: the edit can be undone for 7 days, and its activity
          // entry names the key, which keeps the files from the orphan sweep until then.
          const details = { product: done.row, data: { changes }, ...replacedPicture(done) };
          return {
            answer,
            live: { kind: 'product.updated', data: { product } },
            activity: { kind: 'product.updated', details },
          };
        },
      );
    },
  );
});
