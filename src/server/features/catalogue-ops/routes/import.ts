import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMPORT_COLUMNS,
  IMPORT_ERRORS_MAX,
  IMPORT_PREVIEW_ROWS,
  type ImportMatches,
} from '../../../../shared/constants.js';
import { T } from '../../../../shared/messages.js';
import { validationErrorSchema } from '../../../../shared/schemas/common.js';
import { idempotentWriteHeadersSchema } from '../../../../shared/schemas/idempotency.js';
import {
  importQuerySchema,
  importReportSchema,
  type ImportReport,
} from '../../../../shared/schemas/catalogue.js';
import { centsToPrice } from '../../../../shared/schemas/money.js';
import { errorResponses } from '../../../http/route-options.js';
import { currentCatalogue, type CurrentCatalogue } from '../../catalogues/index.js';
import { checkImport, type ImportCheck } from '../csv-import.js';
import { ImportRefused } from '../csv-records.js';
import {
  listedChanges,
  planImport,
  refuseTakenCodes,
  type ImportPlan,
} from '../import-matching.js';
import { applyImport, importStage, writeImport, type ImportWritten } from '../write-import.js';
import { sendAnswer, type RecordAnswer } from '../../idempotency/index.js';
import { catalogueWrite, keyedRequest, type WriteOutcome } from '../../writes/index.js';
import type { CatalogueContext } from './context.js';
import { bodyCheckedInHandler, productDocs } from '../../products/index.js';
import { csvFileBody, inImportSlot, KEYED_IMPORT_NOTE, readCsvFile } from './csv-upload.js';
import { bulkRouteOptions } from './route-options.js';
import { named } from '../../../http/plugin-name.js';

const importBody = csvFileBody(
  `a header row naming ${IMPORT_COLUMNS.join(', ')} in any order (other columns are ignored)`,
);

/** What a report counts. */
interface Counts {
  created: number;
  updated: number;
  unchanged: number;
}

/**
 * The report of a checked file: the counts, the first errors, and when asked the first valid rows
 * and (on a dry run that would update products) the first updates.
 */
function report(
  check: ImportCheck,
  plan: ImportPlan,
  message: string,
  counts: Counts,
  options: { preview: boolean; dryRun: boolean },
) {
  const errors = [...check.errors, ...plan.errors]
    .sort((a, b) => a.line - b.line)
    .slice(0, IMPORT_ERRORS_MAX);
  const body: ImportReport = { message, ...counts, errors };
  if (options.preview) {
    body.rows = check.rows;
    body.preview = check.valid.slice(0, IMPORT_PREVIEW_ROWS).map((row) => ({
      line: row.line,
      name: row.name,
      price: centsToPrice(row.priceCents),
      stock: row.stock,
      description: row.description,
      ...(row.sku === undefined ? {} : { sku: row.sku }),
      ...(row.barcode === undefined ? {} : { barcode: row.barcode }),
      ...(row.tags === undefined ? {} : { tags: row.tags }),
      ...(row.costCents === undefined
        ? {}
        : { cost: row.costCents === null ? null : centsToPrice(row.costCents) }),
    }));
  }
  if (options.dryRun && plan.update.length > 0) body.changes = listedChanges(plan);
  return body;
}

/** The counts of an import that wrote nothing. */
const NONE: Counts = { created: 0, updated: 0, unchanged: 0 };

/** What a plan would do. */
const countsOf = (plan: ImportPlan): Counts => ({
  created: plan.create.length,
  updated: plan.update.length,
  unchanged: plan.unchanged,
});

/** The message of a report: creation alone reads as before, updates and matches say so. */
function reportMessage(counts: Counts, badRows: number, dryRun: boolean): string {
  const { created, updated, unchanged } = counts;
  const createsOnly = updated === 0 && unchanged === 0;
  if (badRows > 0) {
    if (!dryRun) return T.importFailed(badRows);
    return createsOnly
      ? T.importCheckedWithErrors(created, badRows)
      : T.importPlannedWithErrors(created, updated, unchanged, badRows);
  }
  if (dryRun)
    return createsOnly ? T.importChecked(created) : T.importPlanned(created, updated, unchanged);
  return createsOnly ? T.imported(created) : T.importDone(created, updated, unchanged);
}

/** A real import's answer: its report, or the 400 of a file with bad rows. */
type ImportAnswer = { status: 200 | 400; body: ImportReport };

/** CSV import: every row or none. */
export const importRoute = named<CatalogueContext>('csv-import', async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(bodyCheckedInHandler);

  /**
   * Reads and checks the file; a dry run answers its plan. An import is keyed from there on: the
   * answer stored under its Idempotency-Key is given again before anything is planned (the
   * products it created would now match its rows), else it is written (writeFile).
   */
  async function runImport(
    request: FastifyRequest,
    reply: FastifyReply,
    catalogue: CurrentCatalogue,
    query: { dryRun: boolean; preview: boolean; matches: ImportMatches },
  ) {
    const read = await readCsvFile(request, checkImport);
    if (read instanceof ImportRefused) {
      return reply.code(400).send({ message: read.message, ...NONE, errors: read.errors });
    }
    const { check } = read;
    const { dryRun, matches } = query;
    if (dryRun) {
      // Nothing written: neither stored under a key nor given again, so that the same key can
      // carry the import the dry run checked.
      const plan = await planOf(catalogue, check, matches);
      const badRows = check.badRows + plan.errors.length;
      const planned = countsOf(plan);
      return report(check, plan, reportMessage(planned, badRows, true), planned, query);
    }
    const answer = await keyedRequest({ request, reply }, [query, read.digest], (record) =>
      writeFile({ request, reply }, catalogue, check, query, record),
    );
    return sendAnswer(reply, answer);
  }

  /** The file's rows matched to the catalogue's products, their codes checked. */
  async function planOf(catalogue: CurrentCatalogue, check: ImportCheck, matches: ImportMatches) {
    const plan = await planImport(context.repository, catalogue.id, check.valid, matches);
    await refuseTakenCodes(context.repository, catalogue.id, plan);
    return plan;
  }

  /**
   * Plans the checked file and writes every change or none: the report, stored under the key at
   * the commit. A SQLite re-import's updates are applied after it, and its answer counts what they
   * wrote (the guard then keeps that answer instead).
   */
  async function writeFile(
    http: { request: FastifyRequest; reply: FastifyReply },
    catalogue: CurrentCatalogue,
    check: ImportCheck,
    options: { preview: boolean; matches: ImportMatches },
    record: RecordAnswer,
  ): Promise<ImportAnswer> {
    const { request, reply } = http;
    const plan = await planOf(catalogue, check, options.matches);
    const badRows = check.badRows + plan.errors.length;
    const reportOptions = { preview: options.preview, dryRun: false };
    if (badRows > 0) {
      return {
        status: 400,
        body: report(check, plan, T.importFailed(badRows), NONE, reportOptions),
      };
    }
    const answerOf = (written: Omit<Counts, 'unchanged'>): ImportAnswer => {
      const counts = { ...written, unchanged: plan.unchanged };
      const message = reportMessage(counts, 0, false);
      return { status: 200, body: report(check, plan, message, counts, reportOptions) };
    };
    // What is left to apply after the commit (SQLite), and the count it may take off.
    let applying: ImportWritten | undefined;
    const committed = await catalogueWrite(
      http,
      {
        recordAnswer: record,
        stage: importStage(
          { db: request.server.db, dialect: request.server.database.dialect },
          catalogue,
          plan,
          {
            now: () => request.server.clock.now(),
            // A client gone stops the staging: nobody would read its answer.
            isGone: () => reply.raw.destroyed,
          },
        ),
      },
      async (w, staged): Promise<WriteOutcome<ImportAnswer>> => {
        const written = await writeImport(w, plan, staged);
        const counts = { created: written.created, updated: written.updated };
        if (written.applying) applying = written;
        return {
          answer: answerOf(counts),
          // Updates applied after the commit: the live event once the last one is (applyImport).
          ...(written.applying ? {} : { live: { kind: 'import.done', data: counts } }),
          // Written at the commit: its count of updates is the planned one.
          activity: { kind: 'import.done', details: { data: counts }, source: 'import' },
        };
      },
    );
    const { db, clock } = request.server;
    const written = applying ? await applyImport(db, applying, clock, request.log) : undefined;
    const answer = written ? answerOf(written) : committed;
    context.statistics.refresh(answer.body.created + answer.body.updated);
    return answer;
  }

  app.post(
    '/import',
    {
      ...bulkRouteOptions(context.bulkLimiter, 'editProducts'),
      schema: {
        ...productDocs,
        operationId: 'importProductsCsv',
        summary: 'Create or update products from a CSV file, every row or none',
        description: `At most one import of a user runs at a time (another one meanwhile: 429), and a few per server (beyond: 503), both with \`Retry-After\`. Every row is checked with the rules of \`POST /api/products\` (stock may be 0; a price or cost as text with at most 2 decimals, \`$14.00\` and \`1,234.50\` accepted). A row matches one of your products by \`id\`, then by SKU, then by barcode; \`matches\` says what happens to a matching row: \`update\` (the default: its fields are written over the product, which keeps its image and history, a stock change recorded as an \`import\` movement), \`skip\`, or \`copy\` (a new product). The optional columns \`sku\`, \`barcode\`, \`tags\` (separated by \`;\`) and \`cost\` follow the API's rules; a code that another product of the catalogue, or an earlier row of the file, has is an error of its row, and so is one a location has as its code (of the codes a row gives its product). With \`dryRun=true\` nothing is written: 200 with the report, counting the rows that would be \`created\`, \`updated\` and left \`unchanged\`, and listing the first changes. Otherwise every change is made, all at once (200), or none if any row has an error: 400 with the same errors and every count 0; 409 if another product took a SKU or barcode of the file while it was written. 503 with \`Retry-After\` if the server fell so far behind that the import stalled for a minute: nothing of it was kept. \`errors\` gives, for each bad cell, the line its record starts on (the header is line 1) and the message; at most 1,000 are listed. With \`preview=true\` the report adds \`rows\` and the first ${IMPORT_PREVIEW_ROWS} valid rows as they would be stored. A cell that starts with ' followed by =, +, -, @, a tab or a carriage return loses the ' (what an export adds). ${KEYED_IMPORT_NOTE}`,
        consumes: ['multipart/form-data'],
        headers: idempotentWriteHeadersSchema,
        querystring: importQuerySchema,
        body: importBody,
        response: {
          200: importReportSchema,
          // The report, or the API's usual 400 for an invalid query or a body that is not a CSV part.
          400: z.union([importReportSchema, validationErrorSchema]),
          // A code another product took while the import was written: nothing of it was kept.
          ...errorResponses(409, 422),
        },
      },
    },
    async (request, reply) =>
      inImportSlot(context, request, () =>
        runImport(request, reply, currentCatalogue(request), request.query),
      ),
  );
});
