import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { M } from '../../../../shared/messages.js';
import { productLookupQuerySchema } from '../../../../shared/schemas/product-queries.js';
import { codeLookupResponseSchema } from '../../../../shared/schemas/locations/locations.js';
import { notFound } from '../../../lib/http-error.js';
import { actionConfig, currentCatalogue } from '../../catalogues/index.js';
import type { ProductsContext } from './context.js';
import { productDocs } from './route-options.js';
import { sendCached } from './send-cached.js';
import { errorResponses } from '../../../http/route-options.js';
import { named } from '../../../http/plugin-name.js';

/**
 * Finding what a scanned or typed code belongs to: a product, else a location (a location's code
 * is never a product's SKU or barcode, so at most one of them has it).
 */
export const lookupRoute = named<ProductsContext>('lookup-route', async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/lookup',
    {
      ...actionConfig(app, 'read'),
      schema: {
        ...productDocs,
        operationId: 'lookupProduct',
        summary: 'The product or location a barcode, SKU or location code belongs to',
        description:
          "An exact barcode (a GTIN in any of its forms: UPC-A, EAN-13 and GTIN-14 of one code find the same product) or SKU (case ignored) of one of your products answers `{product}`. A barcode wins over another product with that text as its SKU. Otherwise a location's code (case ignored) answers `{location}`. 404 when nothing has it.",
        querystring: productLookupQuerySchema,
        response: { 200: codeLookupResponseSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { code } = request.query;
      const key = { catalogue, query: { route: 'lookup', code } };
      return sendCached(reply, context.responses, key, async () => {
        const row = await context.repository.findByCode(catalogue.id, code);
        if (row) return { product: context.present.product(row) };
        const location = await fastify.locations.findByCode(catalogue.id, code);
        if (!location) throw notFound(M.codeNotFound);
        return { location };
      });
    },
  );
});
