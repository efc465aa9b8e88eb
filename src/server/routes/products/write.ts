import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMAGE_MAX_MB_TEXT, IMAGE_MAX_PIXELS_TEXT, M } from '../../../shared/messages.js';
import {
  productCreateSchema,
  productIdParamsSchema,
  productMutationResponseSchema,
  productUpdateSchema,
} from '../../../shared/schemas/products.js';
import { notFound } from '../../lib/http-error.js';
import { currentSession } from '../../plugins/authenticate.js';
import { BODY_ERRORS, errorResponses } from '../shared.js';
import type { ProductsContext } from './context.js';
import { PRODUCT_ERRORS, productDocs, productRouteConfig } from './route-options.js';
import { bodyCheckedInHandler, readProductInput } from './form.js';

/** The form as the OpenAPI document shows it; the shared schemas do the actual checking. */
const formBody = z.object({
  name: z.string(),
  price: z.union([z.string(), z.number()]).describe('Dollars with at most 2 decimals, e.g. 19.99'),
  stock: z.union([z.string(), z.number()]).describe('A whole number, 0 or more'),
  description: z.string(),
  image: z
    .string()
    .meta({ format: 'binary' })
    .optional()
    .describe(
      `Multipart only: JPEG, PNG, WebP, AVIF or GIF, at most ${IMAGE_MAX_MB_TEXT} and ${IMAGE_MAX_PIXELS_TEXT}`,
    ),
});

const consumes = ['multipart/form-data', 'application/json'];

export const writeRoutes: FastifyPluginAsync<ProductsContext> = async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Scoped to this plugin: only these two routes. The body schema below only documents it.
  app.setValidatorCompiler(bodyCheckedInHandler);
  const base = productRouteConfig(app);

  app.post(
    '/',
    {
      ...base,
      schema: {
        ...productDocs,
        summary: 'Create a product, with an optional image',
        description:
          'The image is decoded and re-encoded (WebP, at most 1600 px, metadata removed) with a thumbnail.',
        consumes,
        body: formBody,
        response: {
          201: productMutationResponseSchema,
          ...errorResponses(...PRODUCT_ERRORS, ...BODY_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const { user } = currentSession(request);
      const { data, image } = await readProductInput(request, productCreateSchema);
      const row = await context.service.create(user.id, data, image);
      return reply
        .code(201)
        .send({ message: M.productCreated, product: context.present.product(row) });
    },
  );

  app.patch(
    '/:id',
    {
      ...base,
      schema: {
        ...productDocs,
        summary: 'Change some fields of a product, or its image',
        description: 'Every field is optional. A new image replaces the old one, whose files go.',
        consumes,
        params: productIdParamsSchema,
        body: formBody.partial(),
        response: {
          200: productMutationResponseSchema,
          ...errorResponses(...PRODUCT_ERRORS, ...BODY_ERRORS, 404),
        },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const { id } = request.params;
      // An unknown id is answered before the body is read.
      if (!(await context.repository.find(user.id, id))) throw notFound(M.productNotFound);
      const { data, image } = await readProductInput(request, productUpdateSchema);
      const row = await context.service.update(user.id, id, data, image);
      if (!row) throw notFound(M.productNotFound);
      return { message: M.productUpdated, product: context.present.product(row) };
    },
  );
};
