import type { QueryClient } from '@tanstack/react-query';
import type { ZodType } from 'zod';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { progressHandler } from './product-multipart.js';

/** A CSV file sent to one of the products' imports. */
export interface CsvUpload {
  file: File;
  /** Only check the file: nothing is written. */
  dryRun: boolean;
  /** Upload progress, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/** What every import answers: its message, and the rows it refuses (none when it went through). */
export interface CsvReport {
  message: string;
  errors: unknown[];
}

/**
 * One of the products' CSV imports, as its screen uses it (components/use-csv-import.ts): what the
 * write is for (said offline), how the file is sent, and what a real import refreshes.
 */
export interface CsvImport<Extra, Report extends CsvReport> {
  action: string;
  send: (catalogue: CatalogueRef, upload: CsvUpload & Extra) => Promise<Report>;
  refresh: (queries: QueryClient, catalogue: CatalogueRef) => unknown;
}

/** An import the server refused with a report: which rows are wrong, and why. */
export class ImportRefused extends Error {
  constructor(readonly report: CsvReport) {
    super(report.message);
    this.name = 'ImportRefused';
  }
}

/** The report in a refused import's answer, or undefined for a failure of another kind. */
async function refusedReport<Report extends CsvReport>(
  reportSchema: () => Promise<ZodType<Report>>,
  error: unknown,
): Promise<Report | undefined> {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  if (typeof data !== 'object' || data === null || !('errors' in data)) return undefined;
  const report = (await reportSchema()).safeParse(data);
  return report.success ? report.data : undefined;
}

/**
 * POST `path` below the catalogue's products (multipart `file`, `dryRun` and `params` in the
 * query) → the import's report. A refusal that comes with a report (bad rows, a wrong header)
 * rejects with ImportRefused; any other failure (too large, no connection) as every request does.
 */
export async function uploadCsv<Report extends CsvReport>(
  reportSchema: () => Promise<ZodType<Report>>,
  catalogue: CatalogueRef,
  path: string,
  { file, dryRun, onProgress }: CsvUpload,
  params: Record<string, string | boolean> = {},
) {
  const body = new FormData();
  body.append('file', file);
  try {
    return await apiRequest(reportSchema, {
      method: 'POST',
      url: productsUrl(catalogue, path),
      params: { dryRun, ...params },
      data: body,
      onUploadProgress: progressHandler(onProgress),
    });
  } catch (error) {
    const report = await refusedReport(reportSchema, error);
    throw report ? new ImportRefused(report) : error;
  }
}
