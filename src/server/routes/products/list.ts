import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  productSummaryQuerySchema,
  productSummarySchema,
  type ProductSummary,
} from '../../../shared/schemas/catalogue.js';
import {
  productListQuerySchema,
  productListResponseSchema,
  type ProductListResponse,
} from '../../../shared/schemas/products.js';
import { currentSession } from '../../plugins/authenticate.js';
import { decodeCursor, encodeCursor } from '../../products/cursor.js';
import { moneyTotal } from '../../products/exact-sum.js';
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
          'Newest first unless `sort` says otherwise. `q` searches name and description (case and accents ignored). `stock=low` keeps products with 1 to 10 units, `stock=out` those with none. Pass `nextCursor` back as `cursor` for the next page; it is null on the last one.',
        querystring: productListQuerySchema,
        response: { 200: productListResponseSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { user, catalogueVersion } = currentSession(request);
      const { q, sort, stock, limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(sort, cursor);
      const key = { ownerId: user.id, catalogueVersion, query: { q, sort, stock, limit, cursor } };
      return sendCached(reply, context.responses, key, async () => {
        const options = { q, sort, stock, limit, after };
        const { rows, hasMore } = await context.repository.list(user.id, options);
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

  app.get(
    '/summary',
    {
      ...productRouteConfig(app),
      schema: {
        ...productDocs,
        operationId: 'getProductSummary',
        summary: 'How many products the list holds, their units and their value',
        description:
          'For the same `q` and `stock` as the list: `count` products, `units` in stock, and `value`, the sum of price × stock in dollars, added up in integer cents: a JSON number while its text is exactly the amount, otherwise (past about $70 trillion) a string holding the exact decimal.',
        querystring: productSummaryQuerySchema,
        response: { 200: productSummarySchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { user, catalogueVersion } = currentSession(request);
      const { q, stock } = request.query;
      const key = { ownerId: user.id, catalogueVersion, query: { route: 'summary', q, stock } };
      return sendCached(reply, context.responses, key, async () => {
        const { count, units, valueCents } = await context.repository.summary(user.id, {
          q,
          stock,
        });
        const summary: ProductSummary = { count, units, value: moneyTotal(valueCents) };
        return summary;
      });
    },
  );
};
