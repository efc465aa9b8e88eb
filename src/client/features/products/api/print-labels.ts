import { useMutation } from '@tanstack/react-query';
import type { LabelLayout } from '@shared/labels.js';
import { apiDownload } from '@/lib/api-download.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
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
const printLabels = (catalogue: CatalogueRef, { ids, layout, copies, skip }: LabelsRequest) =>
  apiDownload(
    {
      url: productsUrl(catalogue, '/labels.pdf'),
      params: { ids: ids.join(','), layout, copies, skip },
    },
    `labels-${layout}.pdf`,
  );

/** No cache effect: the screen opens the PDF (mutationConfig.onSuccess). */
export function usePrintLabels({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(request: LabelsRequest) => ReturnType<typeof printLabels>>;
} = {}) {
  const catalogue = useCatalogueRef();
  return useMutation({
    ...mutationConfig,
    mutationFn: (request: LabelsRequest) => printLabels(catalogue, request),
  });
}
