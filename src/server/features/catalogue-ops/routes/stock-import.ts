import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMPORT_PREVIEW_ROWS, STOCK_BY_LOCATION_COLUMNS } from '../../../../shared/constants.js';
import { validationErrorSchema } from '../../../../shared/schemas/common.js';
import { idempotentWriteHeadersSchema } from '../../../../shared/schemas/idempotency.js';
import { errorResponses } from '../../../http/route-options.js';
import {
  SI,
  stockImportQuerySchema,
  stockImportReportSchema,
  type StockImportReport,
} from '../../../../shared/schemas/locations/stock-import.js';
import { currentCatalogue } from '../../catalogues/index.js';
import { bodyCheckedInHandler, productDocs, setCountedLevels } from '../../products/index.js';
import { sendAnswer } from '../../idempotency/index.js';
import {
  catalogueWrite,
  keyedRequest,
  type CatalogueWrite,
  type WriteOutcome,
} from '../../writes/index.js';
import { ImportRefused } from '../csv-records.js';
import { checkCountFile } from '../stock-import-check.js';
import { listedCounts, planCounts, type CountPlan } from '../stock-import-plan.js';
import type { CatalogueContext } from './context.js';
import { csvFileBody, inImportSlot, KEYED_IMPORT_NOTE, readCsvFile } from './csv-upload.js';
import { bulkRouteOptions } from './route-options.js';
import { named } from '../../../http/plugin-name.js';

const countsBody = csvFileBody(
  `the header of \`stock-by-location.csv\` (${STOCK_BY_LOCATION_COLUMNS.join(', ')}), in any order: \`location\`, \`quantity\` and at least one of \`id\`, \`sku\`, \`barcode\` (other columns are ignored)`,
);

const refusedReport = (plan: Pick<CountPlan, 'badRows' | 'errors'>): StockImportReport => ({
  message: SI.failed(plan.badRows),
  changed: 0,
  unchanged: 0,
  errors: plan.errors,
});

/** Sets the counts of a planned file in the write's transaction, or refuses them all. */
async function writeCounts(
  w: CatalogueWrite,
  plan: CountPlan,
): Promise<WriteOutcome<{ status: 200 | 400; body: StockImportReport }>> {
  const result = await setCountedLevels(w, plan.counts);
  if (result.outcome === 'refused') {
    const errors = result.lines.map(({ line, reason }) =>
      reason === 'gone'
        ? { line, path: 'id', message: SI.productNotFound }
        : { line, path: 'quantity', message: SI.aboveMax },
    );
    return {
      unchanged: true,
      answer: { status: 400, body: refusedReport({ badRows: errors.length, errors }) },
    };
  }
  const counts = { changed: result.changed, unchanged: result.unchanged };
  return {
    answer: {
      status: 200,
      body: { message: SI.done(counts.changed, counts.unchanged), ...counts, errors: [] },
    },
    live: { kind: 'import.done', data: { created: 0, updated: result.products } },
    activity: {
      kind: 'stock.imported',
      details: { data: { ...counts, products: result.products } },
      source: 'import',
    },
  };
}

/**
 * Stock counted by location from a CSV file (what `stock-by-location.csv` writes): every row or
 * none, checked by a dry run first like the products import, under the same bounds.
 */
export const stockImportRoute = named<CatalogueContext>('stock-csv', async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(bodyCheckedInHandler);

  app.post(
    '/stock-by-location/import',
    {
      ...bulkRouteOptions(context.bulkLimiter, 'adjustStock'),
      schema: {
        ...productDocs,
        operationId: 'importStockByLocationCsv',
        summary: 'Set quantities by location from a CSV file (a count per row), every row or none',
        description: `Takes the file \`stock-by-location.csv\` writes. Each row names a product (by \`id\`, else SKU, else barcode) and a location (by its path, case ignored, else its code) and sets the product's quantity there to \`quantity\` (a whole number, 0 or more), as a count: the difference from what it holds there is recorded as a \`counted\` movement at that location, and its stock changes by it. A row that changes nothing records nothing. An unknown product or location, a path more than one location has (give its code), a bad quantity or a second row of the same product and location is an error of its line. With \`dryRun=true\` nothing is written: 200 with the rows that would change a quantity (\`changed\`, the first ${IMPORT_PREVIEW_ROWS} listed in \`changes\`), those that would not, and the errors. Otherwise every count is made in one transaction (one activity entry \`stock.imported\`, one live event, its webhooks), or none if any row has an error: 400 with the errors. One import of a user at a time (products' imports included: 429), a few per server (503), both with \`Retry-After\`. ${KEYED_IMPORT_NOTE}`,
        consumes: ['multipart/form-data'],
        headers: idempotentWriteHeadersSchema,
        querystring: stockImportQuerySchema,
        body: countsBody,
        response: {
          200: stockImportReportSchema,
          400: z.union([stockImportReportSchema, validationErrorSchema]),
          ...errorResponses(422),
        },
      },
    },
    async (request, reply) =>
      inImportSlot(context, request, async () => {
        const catalogue = currentCatalogue(request);
        const read = await readCsvFile(request, checkCountFile);
        if (read instanceof ImportRefused) {
          return reply
            .code(400)
            .send({ message: read.message, changed: 0, unchanged: 0, errors: read.errors });
        }
        const planOf = async () => {
          const locations = await app.locations.list(catalogue.id);
          return planCounts(context.repository, catalogue.id, locations, read.check);
        };
        if (request.query.dryRun) {
          // Nothing written: neither stored under a key nor given again.
          const plan = await planOf();
          const changed = plan.changes.length;
          const body: StockImportReport = {
            message:
              plan.badRows > 0
                ? SI.checkedWithErrors(changed, plan.badRows)
                : SI.checked(changed, plan.unchanged),
            changed,
            unchanged: plan.unchanged,
            errors: plan.errors,
          };
          if (changed > 0) body.changes = listedCounts(plan);
          return body;
        }
        // Keyed before the plan, which a product deleted since would change.
        const http = { request, reply };
        const answer = await keyedRequest(http, [request.query, read.digest], async (record) => {
          const plan = await planOf();
          if (plan.badRows > 0) return { status: 400 as const, body: refusedReport(plan) };
          return catalogueWrite(http, { recordAnswer: record }, (w) => writeCounts(w, plan));
        });
        return sendAnswer(reply, answer);
      }),
  );
});
