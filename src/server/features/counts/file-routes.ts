import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { C, countParamsSchema } from '../../../shared/schemas/counts/counts.js';
import { bulkLimit } from '../../http/rate-limits.js';
import { errorResponses, rateLimit } from '../../http/route-options.js';
import { notFound } from '../../lib/http-error.js';
import { csvStream } from '../catalogue-ops/index.js';
import { currentCatalogue } from '../catalogues/index.js';
import { findCount, linesQuery } from './reads.js';
import { hidesExpected, type LineRow } from './rows.js';
import { SHEET_ROWS_MAX, sheetRows } from './sheet-rows.js';
import { logCutShort, sendFile } from '../../http/file-replies.js';
import { named } from '../../http/plugin-name.js';

const CSV_HEADER = [
  'productId',
  'sku',
  'barcode',
  'name',
  'location',
  'expected',
  'counted',
  'variance',
  'countedBy',
  'countedAt',
];
const PAGE_ROWS = 1000;

const csvFile = {
  description: "The count's lines, a CSV attachment",
  content: { 'text/csv': { schema: z.unknown().describe('UTF-8 with a BOM, CRLF') } },
};
const pdfFile = {
  description: 'The count sheet, a PDF shown in the browser',
  content: { 'application/pdf': { schema: z.unknown().describe('A PDF document') } },
};

/**
 * A count on paper and in a spreadsheet: its lines as CSV, and a printable count sheet (PDF) of
 * the places to count. Both leave `expected` out where the count's answers hide it.
 */
export const countFileRoutes = named('count-file-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { rateLimits, countPlaces: places } = app;
  const tags = ['counts'];

  const countOf = async (request: FastifyRequest, countId: string) => {
    const row = await findCount(app.db, currentCatalogue(request).id, countId);
    if (!row) throw notFound(C.notFound);
    return row;
  };

  app.get(
    '/:countId.csv',
    {
      config: { ...rateLimit(rateLimits, bulkLimit(rateLimits)), catalogueAction: 'export' },
      schema: {
        operationId: 'exportCountCsv',
        tags,
        summary: "A count's lines as CSV",
        description: `RFC 4180, UTF-8 with a BOM, one row per line in product and location order: \`${CSV_HEADER.join(',')}\`, the location as its path. \`expected\` and \`variance\` are empty where the count's answers hide them (a blind count before its review). Formula-like cells are neutralized.`,
        params: countParamsSchema,
        response: { 200: csvFile, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const count = await countOf(request, request.params.countId);
      const hidden = hidesExpected(count, currentCatalogue(request).role);
      async function* pages() {
        let after: [string, string] | undefined;
        for (;;) {
          const rows = (await linesQuery(app.db, count.id, after)
            .limit(PAGE_ROWS)
            .execute()) as LineRow[];
          // The page's locations' paths in one read, not one per location.
          const ids = [...new Set(rows.map((row) => row.location_id))];
          const paths =
            ids.length > 0
              ? await places.pathsOf(count.catalogue_id, ids)
              : new Map<string, string>();
          const page = [];
          for (const row of rows) {
            page.push([
              row.product_id,
              row.sku ?? '',
              row.barcode ?? '',
              row.name,
              paths.get(row.location_id) ?? '',
              hidden ? '' : row.expected,
              row.counted,
              hidden ? '' : row.counted - row.expected,
              row.counter_name ?? '',
              new Date(Number(row.counted_at)).toISOString(),
            ]);
          }
          yield page;
          const last = rows.at(-1);
          if (rows.length < PAGE_ROWS || !last) return;
          after = [last.product_id, last.location_id];
        }
      }
      return sendFile(
        reply,
        'csv',
        `stockroom-count-${count.id.slice(0, 8)}.csv`,
        csvStream(CSV_HEADER, pages(), logCutShort(request, 'Count CSV')),
      );
    },
  );

  app.get(
    '/:countId/sheet.pdf',
    {
      config: { ...rateLimit(rateLimits, bulkLimit(rateLimits)), catalogueAction: 'printLabels' },
      schema: {
        operationId: 'printCountSheet',
        tags,
        summary: 'A printable count sheet',
        description: `A4 PDF, one row per place to count (the places of the scope where the stock says something is, and those counted already), by location then product, at most ${SHEET_ROWS_MAX.toLocaleString('en-US')}: the product's name, SKU and location, its barcode as vector bars (or a QR code of its page without one), the expected quantity unless the count hides it, and an empty box to write the count in.`,
        params: countParamsSchema,
        response: { 200: pdfFile, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const count = await countOf(request, request.params.countId);
      const rows = await sheetRows(app.db, places, count);
      const scope =
        count.scope_kind === 'location'
          ? ((await places.pathOf(catalogue.id, count.scope_location_id!)) ?? '')
          : count.scope_kind === 'tag'
            ? `Tag ${count.scope_tag}`
            : 'The whole catalogue';
      const hidden = count.blind === 1;
      const { sheetPdf } = await import('./sheet-pdf.js');
      const base = app.config.publicUrl;
      const pageUrl = (id: string) =>
        catalogue.personal
          ? `${base}/details/product/${encodeURIComponent(id)}`
          : `${base}/catalogues/${encodeURIComponent(catalogue.id)}/products/${encodeURIComponent(id)}`;
      const pdf = sheetPdf(
        {
          title: count.name,
          subtitle: `${scope} · ${rows.length} ${rows.length === 1 ? 'place' : 'places'}${hidden ? ' · blind count' : ''}`,
          showExpected: !hidden,
        },
        rows,
        pageUrl,
        logCutShort(request, 'Count sheet'),
      );
      return sendFile(reply, 'pdf', `stockroom-count-sheet-${count.id.slice(0, 8)}.pdf`, pdf);
    },
  );
});
