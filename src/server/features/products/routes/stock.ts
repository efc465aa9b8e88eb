import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { M, T } from '../../../../shared/messages.js';
import {
  movementsQuerySchema,
  movementsResponseSchema,
  stockAdjustmentSchema,
  type MovementsResponse,
} from '../../../../shared/schemas/catalogue.js';
import { productIdParamsSchema } from '../../../../shared/schemas/product-queries.js';
import { productMutationResponseSchema } from '../../../../shared/schemas/products.js';
import { notFound } from '../../../lib/http-error.js';
import { actionConfig, currentCatalogue } from '../../catalogues/index.js';
import { idempotentWriteHeadersSchema } from '../../../../shared/schemas/idempotency.js';
import { sendCatalogueWrite, type WriteOutcome } from '../../writes/index.js';
import { decodeIdCursor, encodeIdCursor } from '../../../lib/id-cursor.js';
import { toMovement } from '../movements.js';
import { changeStock } from '../stock-writes.js';
import type { ProductsContext } from './context.js';
import { productDocs } from './route-options.js';
import { sendCached } from './send-cached.js';
import { errorResponses } from '../../../http/route-options.js';
import { named } from '../../../http/plugin-name.js';

/** A product's stock: adjustments, and the history of every change. */
export const stockRoutes = named<ProductsContext>('stock-routes', async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/:id/stock',
    {
      ...actionConfig(app, 'adjustStock'),
      // An unknown product is a 404 whatever the body: the handler looks before it refuses one.
      attachValidation: true,
      schema: {
        ...productDocs,
        operationId: 'adjustStock',
        summary: "Change a product's stock by a number of units, or set it to a count",
        description:
          "Exactly one of `delta` or `count`, applied to one location: `locationId`, or the catalogue's default location without one (404 when it is not one of the catalogue's locations). `delta` (a whole number other than 0) is added to the location's quantity and so to the stock in one atomic step; a location going below 0 (or a stock above 2147483647) is refused with 409 and changes nothing. `count` (0 or more) sets the location's quantity to the number counted, whatever it was, the stock changing by the difference, recorded as a movement with source `count`. Either is recorded with the optional `reason` and `note`.",
        params: productIdParamsSchema,
        headers: idempotentWriteHeadersSchema,
        body: stockAdjustmentSchema,
        response: {
          200: productMutationResponseSchema,
          ...errorResponses(404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { id } = request.params;
      if (request.validationError) {
        if (!(await context.repository.find(catalogue.id, id))) throw notFound(M.productNotFound);
        throw request.validationError;
      }
      // A refusal (409) is an answer too: given again on a replay, never applied later.
      return sendCatalogueWrite(
        { request, reply },
        { idempotency: [id, request.body] },
        async (w): Promise<WriteOutcome> => {
          const result = await changeStock(w, id, request.body);
          switch (result.outcome) {
            case 'missing':
              throw notFound(M.productNotFound);
            case 'no-location':
              throw notFound(M.locationNotFound);
            case 'below-zero': {
              const { delta = 0, locationId } = request.body;
              // Without a location the stock the spec's client knows is the one it is told of.
              const message =
                locationId === undefined || locationId === catalogue.id
                  ? T.stockBelowZero(result.stock, delta)
                  : T.locationBelowZero(result.stock, delta);
              return { unchanged: true, answer: { status: 409, body: { message } } };
            }
            case 'above-max':
              return {
                unchanged: true,
                answer: { status: 409, body: { message: M.stockAboveMax } },
              };
            case 'done':
              break;
          }
          const { movement, row } = result;
          const product = context.present.product(row);
          const { stock, updatedAt } = product;
          const data = {
            movementId: String(movement.id),
            oldStock: movement.oldStock,
            newStock: movement.newStock,
            delta: movement.delta,
            reason: movement.reason,
            locationId: request.body.locationId ?? catalogue.id,
          };
          return {
            answer: { status: 200, body: { message: M.stockAdjusted, product } },
            live: { kind: 'stock.changed', data: { id, stock, updatedAt } },
            activity: { kind: 'stock.moved', details: { product: row, data } },
          };
        },
      );
    },
  );

  app.get(
    '/:id/movements',
    {
      ...actionConfig(app, 'read'),
      schema: {
        ...productDocs,
        operationId: 'listStockMovements',
        summary: "The history of a product's stock, newest first",
        description:
          'Every change of the stock: creation, an edit that changed it, an adjustment, a count, an import; `reason` keeps those given that reason. Pass `nextCursor` back as `cursor` for older ones (with the same `reason`); it is null on the last page.',
        params: productIdParamsSchema,
        querystring: movementsQuerySchema,
        response: {
          200: movementsResponseSchema,
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { id } = request.params;
      const { limit, cursor, reason } = request.query;
      const before = cursor === undefined ? undefined : decodeIdCursor(cursor);
      const query = { route: 'movements', id, limit, cursor, reason };
      const key = { catalogue, query };
      return sendCached(reply, context.responses, key, async () => {
        const page = await context.repository.movements(catalogue.id, id, {
          limit,
          before,
          reason,
        });
        if (!page) throw notFound(M.productNotFound);
        const last = page.rows.at(-1);
        const answer: MovementsResponse = {
          movements: page.rows.map(toMovement),
          nextCursor: page.hasMore && last ? encodeIdCursor(last.id) : null,
        };
        return answer;
      });
    },
  );
});
