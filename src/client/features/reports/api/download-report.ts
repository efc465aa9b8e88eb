import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-download.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { saveDownload } from '@/lib/download.js';
import { notifyError } from '@/lib/notify.js';
import { reportsUrl, type ReportName } from './reports-url.js';

/**
 * GET …/reports/{name}.csv → the file, saved as the server names it. Fetched (with the bearer
 * token, which a plain link cannot send) rather than followed.
 */
export function useDownloadReport() {
  const catalogue = useCatalogueRef();
  return useMutation({
    mutationFn: ({ name, params }: { name: ReportName; params?: Record<string, number> }) =>
      apiDownload({ url: reportsUrl(catalogue, `${name}.csv`), params }, `${name}.csv`),
    onSuccess: saveDownload,
    onError: notifyError,
  });
}
