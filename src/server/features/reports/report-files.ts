import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentCatalogue } from '../catalogues/index.js';
import { CODE_COLUMNS, reportCsv } from './csv.js';
import type { ReportQueries } from './queries.js';
import { logCutShort, sendFile } from '../../http/file-replies.js';

type Column = { key: string; header: string };

/** A report as a CSV attachment named `filename`. */
export function sendCsv(
  request: FastifyRequest,
  reply: FastifyReply,
  filename: string,
  columns: Column[],
  rows: Record<string, string | number>[],
) {
  const csv = reportCsv(columns, rows, logCutShort(request, 'Report CSV'));
  return sendFile(reply, 'csv', filename, csv);
}

/**
 * A report of products as a file: each row with the product's SKU, barcode and cost beside its
 * name, what a buyer or a spreadsheet matches it by.
 */
export async function sendProductCsv(
  queries: ReportQueries,
  request: FastifyRequest,
  reply: FastifyReply,
  filename: string,
  [product, ...rest]: Column[],
  rows: (Record<string, string | number> & { id: string })[],
) {
  const codes = await queries.codesOf(
    currentCatalogue(request).id,
    rows.map((row) => row.id),
  );
  const records = rows.map((row) => ({ ...row, ...codes.get(row.id) }));
  return sendCsv(request, reply, filename, [product!, ...CODE_COLUMNS, ...rest], records);
}
