import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  productListQuerySchema,
  productListResponseSchema,
} from '../../../shared/schemas/products.js';
import { currentSession } from '../../plugins/authenticate.js';
import { decodeCursor, encodeCursor } from '../../products/cursor.js';
import { rateLimit } from '../shared.js';
import { presenters, productErrors, type ProductsContext } from './context.js';

export const listRoute: FastifyPluginAsync<ProductsContext> = async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { rateLimits } = app.deps;
  const present = presenters(context.images);

  app.get(
    '/',
    {
      config: rateLimit(rateLimits, rateLimits.general),
      preHandler: app.authenticate,
      schema: {
        tags: ['products'],
        summary: "A page of the signed-in user's products",
        description:
          'Newest first unless `sort` says otherwise. `q` searches name and description (case and accents ignored). Pass `nextCursor` back as `cursor` for the next page; it is null on the last one.',
        security: [{ bearer: [] }],
        querystring: productListQuerySchema,
        response: { 200: productListResponseSchema, ...productErrors },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const { q, sort, limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(sort, cursor);
      const { rows, hasMore } = await context.repository.list(user.id, { q, sort, limit, after });
      const last = rows.at(-1);
      return {
        products: rows.map(present.listItem),
        nextCursor:
          hasMore && last ? encodeCursor(sort, { key: last.sort_key, id: last.id }) : null,
      };
    },
  );
};
