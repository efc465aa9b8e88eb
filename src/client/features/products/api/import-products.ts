import { useMutation, useQueryClient } from '@tanstack/react-query';
import { importReportSchema } from '@shared/schemas/catalogue.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys, type MutationConfig } from '@/lib/query-client.js';
import { progressHandler } from './product-multipart.js';

export interface ImportUpload {
  file: File;
  /** Only check the file: nothing is written. */
  dryRun: boolean;
  /** Upload progress, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/**
 * POST /products/import?dryRun&preview (multipart `file`) → the report {message, created, errors,
 * rows, preview}. A file with bad rows is answered 400 with the same report when not a dry run.
 */
export const importProducts = ({ file, dryRun, onProgress }: ImportUpload) => {
  const body = new FormData();
  body.append('file', file);
  return apiRequest(importReportSchema, {
    method: 'POST',
    url: '/products/import',
    params: { dryRun, preview: true },
    data: body,
    onUploadProgress: progressHandler(onProgress),
  });
};

/** Imported products refresh the list (a dry run changes nothing); then the screen's onSuccess. */
export function useImportProducts({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof importProducts> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: importProducts,
    onSuccess: async (data, upload, ...rest) => {
      if (!upload.dryRun) await queryClient.invalidateQueries({ queryKey: queryKeys.products });
      await onSuccess?.(data, upload, ...rest);
    },
  });
}

/**
 * The report in a refused import's answer (400, with the rows that are wrong), or undefined when
 * the failure is of another kind (a file too large, no connection).
 */
export function importReportOf(error: unknown) {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  const report = importReportSchema.safeParse(data);
  return report.success ? report.data : undefined;
}
