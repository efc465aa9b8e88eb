import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idempotentWriteHeadersSchema } from '../../../../shared/schemas/idempotency.js';
import {
  TR,
  TRANSFER_LINES_MAX,
  transferResponseSchema,
  transferSchema,
  type TransferResponse,
} from '../../../../shared/schemas/locations/transfers.js';
import { errorResponses } from '../../../http/route-options.js';
import { notFound } from '../../../lib/http-error.js';
import { actionConfig, currentCatalogue } from '../../catalogues/index.js';
import { sendCatalogueWrite, type WriteOutcome } from '../../writes/index.js';
import { transferStock } from '../transfers.js';
import { named } from '../../../http/plugin-name.js';

/** The largest body: the most lines, with room for white space. */
const TRANSFER_BODY_MAX = TRANSFER_LINES_MAX * 256;

/**
 * Moves of stock between a catalogue's locations, at `/api/stock/transfers` for the caller's
 * personal catalogue and at `/api/catalogues/{catalogueId}/stock/transfers` for any: whoever may
 * adjust stock may move it.
 */
export const stockTransferRoutes = named('stock-transfer-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/transfers',
    {
      ...actionConfig(app, 'adjustStock'),
      // 500 lines of three ids and a number: about 75 KiB, past the app's 64 KiB for JSON.
      bodyLimit: TRANSFER_BODY_MAX,
      schema: {
        tags: ['locations'],
        operationId: 'transferStock',
        summary: 'Move stock between locations',
        description: `One move \`{productId, from, to, quantity}\`, or \`{lines: [...]}\` with 1 to ${TRANSFER_LINES_MAX} of them, made in one transaction: all of them or none. Products' stock never changes. A location of the catalogue going below 0 is refused with 409 naming the product and the location, and nothing moves; a product or location that is not the catalogue's is 404; \`from\` equal to \`to\` is 400. One activity entry \`stock.transferred\` (undoable for 7 days), one live event and one webhook.`,
        headers: idempotentWriteHeadersSchema,
        body: transferSchema,
        response: { 200: transferResponseSchema, ...errorResponses(400, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const lines = 'lines' in request.body ? request.body.lines : [request.body];
      return sendCatalogueWrite(
        { request, reply },
        { idempotency: [request.body] },
        async (w): Promise<WriteOutcome> => {
          const result = await transferStock(w, lines);
          switch (result.outcome) {
            case 'no-product':
              throw notFound(TR.productNotFound);
            case 'no-location':
              throw notFound(TR.locationNotFound);
            case 'short': {
              const [place] = await app.locations.pathsOf(catalogue.id, [result.locationId]);
              const message = TR.short(result.name, place!.path, result.held, result.quantity);
              return { unchanged: true, answer: { status: 409, body: { message } } };
            }
            case 'done':
              break;
          }
          const { products, units, levels } = result;
          const body: TransferResponse = {
            message: TR.moved(units, products.length),
            products: products.map(({ id }) => ({
              id,
              locations: levels
                .filter((level) => level.productId === id)
                .map(({ locationId, quantity }) => ({ locationId, quantity })),
            })),
          };
          const moved = lines.map(({ productId, from, to, quantity }) => ({
            productId: productId.toLowerCase(),
            from: from.toLowerCase(),
            to: to.toLowerCase(),
            quantity,
          }));
          return {
            answer: { status: 200, body },
            live: { kind: 'stock.transferred', data: { ids: products.map(({ id }) => id) } },
            activity: {
              kind: 'stock.transferred',
              details: {
                ...(products.length === 1 ? { product: products[0] } : {}),
                data: { units, products: products.length, lines: moved },
              },
            },
          };
        },
      );
    },
  );
});
