import { useMutation } from '@tanstack/react-query';
import type { LabelLayout } from '@shared/labels.js';
import { apiDownload } from '@/lib/api-download.js';
import type { MutationConfig } from '@/lib/query-client.js';

export interface LabelsRequest {
  ids: string[];
  layout: LabelLayout;
  copies: number;
  skip: number;
}

/**
 * GET /products/labels.pdf?ids&layout&copies&skip → the labels as a PDF (with the bearer token,
 * so fetched rather than linked to).
 */
export const printLabels = ({ ids, layout, copies, skip }: LabelsRequest) =>
  apiDownload(
    { url: '/products/labels.pdf', params: { ids: ids.join(','), layout, copies, skip } },
    `labels-${layout}.pdf`,
  );

/** No cache effect: the screen opens the PDF (mutationConfig.onSuccess). */
export const usePrintLabels = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof printLabels> } = {}) =>
  useMutation({ ...mutationConfig, mutationFn: printLabels });
