import type { ImportMatches } from '@shared/constants.js';
import type { ImportReport } from '@shared/schemas/catalogue.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { uploadCsv, type CsvImport } from './csv-upload.js';

const reportSchema = () => import('@shared/schemas/catalogue.js').then((m) => m.importReportSchema);

/**
 * POST /products/import?dryRun&preview (multipart `file`) → the report {message, created, errors,
 * rows, preview}; `matches` says what to do with rows that match an existing product (by id), the
 * server's default being update. Imported products refresh the list.
 */
export const productsImport: CsvImport<{ matches?: ImportMatches | undefined }, ImportReport> = {
  action: 'Importing products',
  send: (catalogue, { matches, ...upload }) =>
    uploadCsv(reportSchema, catalogue, '/import', upload, {
      preview: true,
      ...(matches ? { matches } : {}),
    }),
  refresh: (queries, catalogue) =>
    queries.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
};
