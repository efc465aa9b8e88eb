import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LabelLayout } from '../../../../shared/labels.js';
import type { LabelContent } from '../labels/pdf.js';
import { logCutShort, sendFile } from '../../../http/file-replies.js';

/**
 * The PDF code (pdfkit, bwip-js and their fonts and tables) loads on the first labels request,
 * not at start-up: most processes never print a label.
 */
const loadLabels = () =>
  Promise.all([
    import('../labels/pdf.js'),
    import('../labels/layouts.js'),
    import('../labels/contents.js'),
  ]).then(([pdf, layouts, contents]) => ({
    labelsPdf: pdf.labelsPdf,
    LAYOUTS: layouts.LAYOUTS,
    productLabel: contents.productLabel,
    codeLabel: contents.codeLabel,
  }));

/** What makes a label's content: a product's, or a thing's known by a code. */
type LabelMakers = Pick<Awaited<ReturnType<typeof loadLabels>>, 'productLabel' | 'codeLabel'>;

/**
 * Answers with the labels as a PDF streamed as it is drawn, on the chosen sheet or roll, each
 * label `copies` times, after `skip` cells of a used sheet. `labels` makes their contents once
 * the label code is loaded.
 */
export async function sendLabelsPdf(
  request: FastifyRequest,
  reply: FastifyReply,
  labels: (makers: LabelMakers) => LabelContent[],
  run: { layout: LabelLayout; copies: number; skip: number; filename: string },
) {
  const { labelsPdf, LAYOUTS, ...makers } = await loadLabels();
  const pdf = labelsPdf(
    labels(makers),
    { layout: LAYOUTS[run.layout], copies: run.copies, skip: run.skip },
    logCutShort(request, 'Labels PDF'),
  );
  return sendFile(reply, 'pdf', `${run.filename}-${run.layout}.pdf`, pdf);
}
