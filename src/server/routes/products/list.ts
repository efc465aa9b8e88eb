import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  productListQuerySchema,
  productListResponseSchema,
  type ProductListResponse,
} from '../../../shared/schemas/products.js';
import { currentSession } from '../../plugins/authenticate.js';
import { decodeCursor, encodeCursor } from '../../products/cursor.js';
import { PageCache } from '../../products/page-cache.js';
import { guarded, productDocs, productErrors, type ProductsContext } from './context.js';

/** Fastify sends JSON-typed bytes as they are; the typed reply only knows the object form. */
const sendSerialized = (reply: FastifyReply, body: Buffer) => reply.send(body);

export const listRoute: FastifyPluginAsync<ProductsContext> = async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/',
    {
      ...guarded(app),
      schema: {
        ...productDocs,
        summary: "A page of the signed-in user's products",
        description:
          'Newest first unless `sort` says otherwise. `q` searches name and description (case and accents ignored). Pass `nextCursor` back as `cursor` for the next page; it is null on the last one.',
        querystring: productListQuerySchema,
        response: { 200: productListResponseSchema, ...productErrors },
      },
    },
    async (request, reply) => {
      const { user, catalogueVersion } = currentSession(request);
      const { q, sort, limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(sort, cursor);
      reply.type('application/json; charset=utf-8');
      const key = PageCache.key(user.id, catalogueVersion, { q, sort, limit, cursor });
      const cached = context.pages.get(key);
      if (cached !== undefined) return sendSerialized(reply, cached);

      const { rows, hasMore } = await context.repository.list(user.id, { q, sort, limit, after });
      const last = rows.at(-1);
      const page: ProductListResponse = {
        products: rows.map(context.present.listItem),
        nextCursor:
          hasMore && last ? encodeCursor(sort, { key: last.sort_key, id: last.id }) : null,
      };
      // Sent as bytes, so the body is built once per catalogue version; the presenters give
      // exactly the schema's fields, which a test checks against the response schema.
      const body = Buffer.from(JSON.stringify(page));
      context.pages.set(key, body);
      return sendSerialized(reply, body);
    },
  );
};
