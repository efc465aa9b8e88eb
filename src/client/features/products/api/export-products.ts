import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-download.js';
import type { MutationConfig } from '@/lib/query-client.js';
import type { ProductListParams } from './get-products.js';

/** What a download is saved as when the server names no file. */
const FALLBACK_NAME = 'products.csv';

/**
 * GET /products/export.csv?q&sort&stock → the CSV file (with the bearer token, so fetched rather
 * than linked to), and the name the server gives it.
 */
export const exportProducts = ({ q, sort, stock, tag }: ProductListParams) =>
  apiDownload(
    { url: '/products/export.csv', params: { q: q || undefined, sort, stock, tag } },
    FALLBACK_NAME,
  );

/** No cache effect: the screen saves the file (mutationConfig.onSuccess). */
export const useExportProducts = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof exportProducts> } = {}) =>
  useMutation({ ...mutationConfig, mutationFn: exportProducts });
