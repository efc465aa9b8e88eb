import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { M } from '../../../../shared/messages.js';
import { messageSchema } from '../../../../shared/schemas/common.js';
import {
  productIdParamsSchema,
  productResponseSchema,
} from '../../../../shared/schemas/products.js';
import { idempotentWriteHeadersSchema } from '../../../../shared/schemas/idempotency.js';
import { notFound } from '../../../lib/http-error.js';
import { idempotently, sendAnswer } from '../../idempotency/index.js';
import { recordLiveEvent } from '../../live-events/index.js';
import { currentSession } from '../../../http/authenticate.js';
import { currentCatalogue } from '../../catalogues/index.js';
import { recordActivity } from '../../activity/index.js';
import type { ProductsContext } from './context.js';
import { productDocs, productRouteConfig } from './route-options.js';
import { sendCached } from './send-cached.js';
import { errorResponses } from '../../../http/route-options.js';

/** Reading and deleting one product. Another user's product is a 404, never a 403. */
export const itemRoutes: FastifyPluginAsync<ProductsContext> = async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/:id',
    {
      ...productRouteConfig(app, 'read'),
      schema: {
        ...productDocs,
        operationId: 'getProduct',
        summary: 'One product of the signed-in user',
        description: "Another user's product, and an id that is no product's, are 404.",
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
        return { product: context.present.product(row) };
      });
    },
  );

  app.delete(
    '/:id',
    {
      ...productRouteConfig(app, 'editProducts'),
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
      const { user } = currentSession(request);
      const catalogue = currentCatalogue(request);
      const { id } = request.params;
      const now = app.clock.now();
      const answer = { status: 200, body: { message: M.productDeleted } };
      const http = { request, reply, ownerId: user.id, now };
      const given = await idempotently(app.idempotency, http, [id], async (record) => {
        const deleted = await context.service.delete(catalogue, id, async (trx, done) => {
          await record(trx, answer);
          await recordLiveEvent(trx, catalogue.id, 'product.deleted', { id }, now);
          // The whole product goes into the entry: what an undo puts back.
          const { products, snapshot } = done;
          await recordActivity(
            trx,
            catalogue,
            'product.deleted',
            {
              product: products[0],
              snapshot,
              imageKey: snapshot?.row.image_key ?? null,
            },
            now,
          );
        });
        if (!deleted) throw notFound(M.productNotFound);
        return answer;
      });
      return sendAnswer(reply, given);
    },
  );
};
