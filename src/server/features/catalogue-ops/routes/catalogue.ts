import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_COLUMNS, STOCK_BY_LOCATION_COLUMNS } from '../../../../shared/constants.js';
import { M, T } from '../../../../shared/messages.js';
import {
  bulkDeleteResponseSchema,
  bulkDeleteSchema,
  productExportQuerySchema,
} from '../../../../shared/schemas/catalogue.js';
import { idempotentWriteHeadersSchema } from '../../../../shared/schemas/idempotency.js';
import { notFound } from '../../../lib/http-error.js';
import { currentCatalogue } from '../../catalogues/index.js';
import { sendCatalogueWrite, type WriteOutcome } from '../../writes/index.js';
import { startCsvExport } from '../csv-export.js';
import { stockByLocationCsv } from '../stock-by-location.js';
import type { CatalogueContext } from './context.js';
import { deleteProducts, productDocs } from '../../products/index.js';
import { bulkRouteOptions, costlyRouteOptions } from './route-options.js';
import { COSTLY_WORK_NOTE } from '../../../http/costly-work.js';
import { errorResponses } from '../../../http/route-options.js';
import { logCutShort, sendFile } from '../../../http/file-replies.js';
import { named } from '../../../http/plugin-name.js';

/** The day of a file's name: 2026-01-01. */
const today = (now: number) => new Date(now).toISOString().slice(0, 10);

/**
 * The whole catalogue at once: CSV exports (products, and stock by location), bulk delete (the
 * import is in import.ts).
 */
export const catalogueRoutes = named<CatalogueContext>('bulk-routes', async (fastify, context) => {
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
      const csv = await startCsvExport(
        pages,
        context.present.ownImageUrl,
        logCutShort(request, 'CSV export'),
      );
      return sendFile(reply, 'csv', `stockroom-products-${today(app.clock.now())}.csv`, csv);
    },
  );

  app.get(
    '/stock-by-location.csv',
    {
      ...costlyRouteOptions(context.bulkLimiter, 'export'),
      schema: {
        ...productDocs,
        operationId: 'exportStockByLocationCsv',
        summary: 'Where the stock is, as a CSV file: one row per product and location',
        description: `Every product holding stock, in the list's order by name, with one record per location holding some of it (by path), streamed as RFC 4180 CSV (UTF-8 with a BOM, CRLF) with the header \`${STOCK_BY_LOCATION_COLUMNS.join(',')}\`. \`location\` is the location's path (names from the top joined with \` / \`). Cells are guarded against spreadsheet formulas as in \`export.csv\`. ${COSTLY_WORK_NOTE}`,
        response: {
          200: {
            description: 'The CSV file, as an attachment',
            content: { 'text/csv': { schema: z.unknown().describe('UTF-8 with a BOM, CRLF') } },
          },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const locations = await app.locations.list(catalogue.id);
      const paths = new Map(locations.map((location) => [location.id, location.path]));
      const products = context.repository.exportPages(catalogue.id, { sort: 'name' });
      const csv = await stockByLocationCsv(
        products,
        (ids) => context.repository.levelsOf(catalogue.id, ids),
        paths,
        logCutShort(request, 'CSV export'),
      );
      return sendFile(
        reply,
        'csv',
        `stockroom-stock-by-location-${today(app.clock.now())}.csv`,
        csv,
      );
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
      return sendCatalogueWrite(
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
    },
  );
});
