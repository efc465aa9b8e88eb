import type { StockImportReport } from '@shared/schemas/locations/stock-import.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { progressHandler } from './product-multipart.js';
import { useProductWrite } from './product-write.js';

export interface StockUpload {
  file: File;
  /** Only check the file: nothing is written. */
  dryRun: boolean;
  onProgress?: (fraction: number) => void;
}

const reportSchema = () =>
  import('@shared/schemas/locations/stock-import.js').then((m) => m.stockImportReportSchema);

/** A stock import the server refused with a report: which rows are wrong, and why. */
export class StockImportRefused extends Error {
  constructor(readonly report: StockImportReport) {
    super(report.message);
    this.name = 'StockImportRefused';
  }
}

async function refusedReport(error: unknown): Promise<StockImportReport | undefined> {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  if (typeof data !== 'object' || data === null || !('errors' in data)) return undefined;
  const report = (await reportSchema()).safeParse(data);
  return report.success ? report.data : undefined;
}

/** POST /products/stock-by-location/import?dryRun (multipart `file`) → the report. */
async function importStock(catalogue: CatalogueRef, { file, dryRun, onProgress }: StockUpload) {
  const body = new FormData();
  body.append('file', file);
  try {
    return await apiRequest(reportSchema, {
      method: 'POST',
      url: productsUrl(catalogue, '/stock-by-location/import'),
      params: { dryRun },
      data: body,
      onUploadProgress: progressHandler(onProgress),
    });
  } catch (error) {
    const report = await refusedReport(error);
    throw report ? new StockImportRefused(report) : error;
  }
}

/** Counted stock refreshes the list and the locations (a dry run changes nothing). */
export const useImportStockByLocation = ({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(upload: StockUpload) => ReturnType<typeof importStock>>;
} = {}) =>
  useProductWrite({
    action: 'Importing stock',
    send: importStock,
    refresh: (queries, catalogue, { dryRun }) =>
      dryRun
        ? undefined
        : Promise.all([
            queries.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
            queries.invalidateQueries({ queryKey: ['locations'] }),
          ]),
    mutationConfig,
  });
