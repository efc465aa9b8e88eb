import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_COLUMNS } from '../../../../shared/constants.js';
import { M, T } from '../../../../shared/messages.js';
import {
  bulkDeleteResponseSchema,
  bulkDeleteSchema,
  productExportQuerySchema,
} from '../../../../shared/schemas/catalogue.js';
import { idempotentWriteHeadersSchema } from '../../../../shared/schemas/idempotency.js';
import { notFound } from '../../../lib/http-error.js';
import { sendAnswer } from '../../idempotency/index.js';
import { currentCatalogue } from '../../catalogues/index.js';
import { catalogueWrite, type WriteOutcome } from '../../writes/index.js';
import { startCsvExport } from '../csv-export.js';
import type { CatalogueContext } from './context.js';
import { deleteProducts, productDocs } from '../../products/index.js';
import { bulkRouteOptions, costlyRouteOptions } from './route-options.js';
import { COSTLY_WORK_NOTE } from '../../../http/costly-work.js';
import { errorResponses } from '../../../http/route-options.js';

/** What a client gone half-way through an export leaves behind: nothing to log. */
const isClientGone = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';

/** The whole catalogue at once: CSV export, bulk delete (the import is in import.ts). */
export const catalogueRoutes: FastifyPluginAsync<CatalogueContext> = async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/export.csv',
    {
      ...costlyRouteOptions(context.bulkLimiter, 'export'),
      schema: {
        ...productDocs,
        operationId: 'exportProductsCsv',
        summary: "The signed-in user's products as a CSV file",
        description: `The products the list shows for the same \`q\`, \`sort\`, \`stock\` and \`tag\`, in its order, streamed as RFC 4180 CSV (UTF-8 with a BOM, CRLF) with the header \`${EXPORT_COLUMNS.join(',')}\`. \`price\` has two decimals; \`image\` is the product's own picture, empty without one. A cell that starts with =, +, -, @, a tab or a carriage return gets a ' in front, so that a spreadsheet does not run it; an import takes it off again. ${COSTLY_WORK_NOTE}`,
        querystring: productExportQuerySchema,
        response: {
          200: {
            description: 'The CSV file, as an attachment',
            content: { 'text/csv': { schema: z.unknown().describe('UTF-8 with a BOM, CRLF') } },
          },
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { q, sort, stock, tag } = request.query;
      const pages = context.repository.exportPages(catalogue.id, { q, sort, stock, tag });
      const csv = await startCsvExport(pages, context.present.ownImageUrl, (error) => {
        if (!isClientGone(error)) request.log.error({ err: error }, 'CSV export cut short');
      });
      const day = new Date(app.clock.now()).toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="stockroom-products-${day}.csv"`)
        .send(csv);
    },
  );

  app.post(
    '/bulk-delete',
    {
      ...bulkRouteOptions(context.bulkLimiter, 'editProducts'),
      schema: {
        ...productDocs,
        operationId: 'bulkDeleteProducts',
        summary: 'Delete up to 100 products at once, all or none',
        description:
          'Every id must name one of your products: if one does not, nothing is deleted (404). The images go once the delete has committed.',
        headers: idempotentWriteHeadersSchema,
        body: bulkDeleteSchema,
        response: {
          200: bulkDeleteResponseSchema,
          ...errorResponses(404, 422),
        },
      },
    },
    async (request, reply) => {
      const { ids } = request.body;
      const answer = await catalogueWrite(
        { request, reply },
        { idempotency: [ids] },
        async (w): Promise<WriteOutcome> => {
          const deleted = await deleteProducts(w, ids);
          if (!deleted) throw notFound(M.productsNotFound);
          const unique = [...new Set(ids)];
          return {
            answer: {
              status: 200,
              body: { message: T.productsDeleted(ids.length), deleted: ids.length },
            },
            live: { kind: 'products.deleted', data: { ids: unique } },
            activity: {
              kind: 'products.deleted',
              details: { data: { products: deleted.products } },
            },
            // Their files go once the delete committed.
            afterCommit: () => context.removeImages(deleted.imageKeys),
          };
        },
      );
      return sendAnswer(reply, answer);
    },
  );
};
