import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { M } from '../../../../shared/messages.js';
import { messageSchema } from '../../../../shared/schemas/common.js';
import { productIdParamsSchema } from '../../../../shared/schemas/product-queries.js';
import { productResponseSchema } from '../../../../shared/schemas/products.js';
import { idempotentWriteHeadersSchema } from '../../../../shared/schemas/idempotency.js';
import { notFound } from '../../../lib/http-error.js';
import { actionConfig, currentCatalogue } from '../../catalogues/index.js';
import { sendCatalogueWrite, type WriteOutcome } from '../../writes/index.js';
import { deleteProducts } from '../delete-writes.js';
import type { ProductsContext } from './context.js';
import { productDocs } from './route-options.js';
import { sendCached } from './send-cached.js';
import { errorResponses } from '../../../http/route-options.js';
import { named } from '../../../http/plugin-name.js';

/** Reading and deleting one product. Another user's product is a 404, never a 403. */
export const itemRoutes = named<ProductsContext>('item-routes', async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/:id',
    {
      ...actionConfig(app, 'read'),
      schema: {
        ...productDocs,
        operationId: 'getProduct',
        summary: 'One product of the signed-in user',
        description:
          "Another user's product, and an id that is no product's, are 404. `locations` says where its stock is: each location holding some, its path and quantity; `suppliers` who sells it, the preferred one first.",
        params: productIdParamsSchema,
        response: { 200: productResponseSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { id } = request.params;
      const key = { catalogue, query: { id } };
      return sendCached(reply, context.responses, key, async () => {
        const row = await context.repository.find(catalogue.id, id);
        if (!row) throw notFound(M.productNotFound);
        const held = await context.repository.levels(catalogue.id, id);
        const paths = await fastify.locations.pathsOf(
          catalogue.id,
          held.map((level) => level.location_id),
        );
        const locations = held
          .map((level, i) => ({
            locationId: level.location_id,
            path: paths[i]!.path,
            quantity: level.quantity,
          }))
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        const suppliers = await fastify.purchasing.suppliersOf(catalogue.id, row.id);
        return { product: { ...context.present.product(row), locations, suppliers } };
      });
    },
  );

  app.delete(
    '/:id',
    {
      ...actionConfig(app, 'editProducts'),
      schema: {
        ...productDocs,
        operationId: 'deleteProduct',
        summary: 'Delete a product and its image for good',
        description: 'Takes no body. The image files go once the row is gone.',
        params: productIdParamsSchema,
        headers: idempotentWriteHeadersSchema,
        response: { 200: messageSchema, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendCatalogueWrite(
        { request, reply },
        { idempotency: [id] },
        async (w): Promise<WriteOutcome> => {
          const deleted = await deleteProducts(w, [id]);
          if (!deleted) throw notFound(M.productNotFound);
          // The whole product goes into the entry: what an undo puts back. Its image files stay
          // while the delete can be undone: the entry names the key, which keeps them from the
          // orphan sweep until then.
          const { products, snapshot } = deleted;
          const imageKey = snapshot?.row.image_key ?? null;
          return {
            answer: { status: 200, body: { message: M.productDeleted } },
            live: { kind: 'product.deleted', data: { id } },
            activity: {
              kind: 'product.deleted',
              details: { product: products[0], snapshot, imageKey },
            },
          };
        },
      );
    },
  );
});
