import type { ImportMatches } from '@shared/constants.js';
import type { ImportReport } from '@shared/schemas/catalogue.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { progressHandler } from './product-multipart.js';
import { useProductWrite } from './product-write.js';

export interface ImportUpload {
  file: File;
  /** Only check the file: nothing is written. */
  dryRun: boolean;
  /** What to do with rows that match an existing product (by id); the server's default: update. */
  matches?: ImportMatches | undefined;
  /** Upload progress, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

const reportSchema = () => import('@shared/schemas/catalogue.js').then((m) => m.importReportSchema);

/** An import the server refused with a report: which rows are wrong, and why. */
export class ImportRefused extends Error {
  constructor(readonly report: ImportReport) {
    super(report.message);
    this.name = 'ImportRefused';
  }
}

/** The report in a refused import's answer, or undefined for a failure of another kind. */
async function refusedReport(error: unknown): Promise<ImportReport | undefined> {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  if (typeof data !== 'object' || data === null || !('errors' in data)) return undefined;
  const report = (await reportSchema()).safeParse(data);
  return report.success ? report.data : undefined;
}

/**
 * POST /products/import?dryRun&preview (multipart `file`) → the report {message, created, errors,
 * rows, preview}. A refusal that comes with a report (bad rows, a wrong header) rejects with
 * ImportRefused; any other failure (too large, no connection) as every request does.
 */
async function importProducts(
  catalogue: CatalogueRef,
  { file, dryRun, matches, onProgress }: ImportUpload,
) {
  const body = new FormData();
  body.append('file', file);
  try {
    return await apiRequest(reportSchema, {
      method: 'POST',
      url: productsUrl(catalogue, '/import'),
      params: { dryRun, preview: true, ...(matches ? { matches } : {}) },
      data: body,
      onUploadProgress: progressHandler(onProgress),
    });
  } catch (error) {
    const report = await refusedReport(error);
    throw report ? new ImportRefused(report) : error;
  }
}

/** Imported products refresh the list (a dry run changes nothing); then the screen's onSuccess. */
export const useImportProducts = ({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(upload: ImportUpload) => ReturnType<typeof importProducts>>;
} = {}) =>
  useProductWrite({
    action: 'Importing products',
    send: importProducts,
    refresh: (queries, catalogue, { dryRun }) =>
      dryRun ? undefined : queries.invalidateQueries({ queryKey: queryKeys.products(catalogue) }),
    mutationConfig,
  });
