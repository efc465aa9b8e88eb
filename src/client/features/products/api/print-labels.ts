import { useMutation } from '@tanstack/react-query';
import type { LabelLayout } from '@shared/labels.js';
import { apiDownload } from '@/lib/api-download.js';
import { productsUrl, useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import type { MutationConfig } from '@/lib/query/query-client.js';

export interface LabelsRequest {
  ids: string[];
  layout: LabelLayout;
  copies: number;
  skip: number;
}

/**
 * POST /products/labels.pdf {ids, layout, copies, skip} → the labels as a PDF (with the bearer
 * token, so fetched rather than linked to). The ids go in the body: a selection of a thousand
 * products is far longer than an address may be.
 */
const printLabels = (catalogue: CatalogueRef, request: LabelsRequest) =>
  apiDownload(
    { url: productsUrl(catalogue, '/labels.pdf'), method: 'POST', data: request },
    `labels-${request.layout}.pdf`,
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
