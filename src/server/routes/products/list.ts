import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  productListQuerySchema,
  productListResponseSchema,
  type ProductListResponse,
} from '../../../shared/schemas/products.js';
import { currentSession } from '../../plugins/authenticate.js';
import { decodeCursor, encodeCursor } from '../../products/cursor.js';
import type { ProductsContext } from './context.js';
import { productDocs, productRouteConfig } from './route-options.js';
import { sendCached } from './send-cached.js';
import { errorResponses } from '../shared.js';

export const listRoute: FastifyPluginAsync<ProductsContext> = async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/',
    {
      ...productRouteConfig(app),
      schema: {
        ...productDocs,
        operationId: 'listProducts',
        summary: "A page of the signed-in user's products",
        description:
          'Newest first unless `sort` says otherwise. `q` searches name and description (case and accents ignored). Pass `nextCursor` back as `cursor` for the next page; it is null on the last one.',
        querystring: productListQuerySchema,
        response: { 200: productListResponseSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { user, catalogueVersion } = currentSession(request);
      const { q, sort, limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(sort, cursor);
      const key = { ownerId: user.id, catalogueVersion, query: { q, sort, limit, cursor } };
      return sendCached(reply, context.responses, key, async () => {
        const { rows, hasMore } = await context.repository.list(user.id, { q, sort, limit, after });
        const last = rows.at(-1);
        const page: ProductListResponse = {
          products: rows.map(context.present.listItem),
          nextCursor:
            hasMore && last ? encodeCursor(sort, { key: last.sort_key, id: last.id }) : null,
        };
        return page;
      });
    },
  );
};
