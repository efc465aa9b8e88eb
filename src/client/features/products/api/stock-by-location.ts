import type { StockImportReport } from '@shared/schemas/locations/stock-import.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { uploadCsv, type CsvImport } from './csv-upload.js';

const reportSchema = () =>
  import('@shared/schemas/locations/stock-import.js').then((m) => m.stockImportReportSchema);

/**
 * POST /products/stock-by-location/import?dryRun (multipart `file`) → the report. Counted stock
 * refreshes the list and the locations.
 */
export const stockByLocationImport: CsvImport<object, StockImportReport> = {
  action: 'Importing stock',
  send: (catalogue, upload) =>
    uploadCsv(reportSchema, catalogue, '/stock-by-location/import', upload),
  refresh: (queries, catalogue) =>
    Promise.all([
      queries.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
      queries.invalidateQueries({ queryKey: ['locations'] }),
    ]),
};
