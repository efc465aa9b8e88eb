import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LABEL_LAYOUTS, LABELS_MAX } from '../../../../shared/labels.js';
import { M } from '../../../../shared/messages.js';
import { labelsBodySchema, labelsQuerySchema } from '../../../../shared/schemas/labels.js';
import type { LabelLayout } from '../../../../shared/labels.js';
import { HttpError, notFound } from '../../../lib/http-error.js';
import { currentCatalogue, type CurrentCatalogue } from '../../catalogues/index.js';
import type { ProductRow } from '../../products/index.js';
import type { CatalogueContext } from './context.js';
import { productDocs } from '../../products/index.js';
import { costlyRouteOptions } from './route-options.js';
import { sendLabelsPdf } from './send-labels.js';
import { COSTLY_WORK_NOTE } from '../../../http/costly-work.js';
import { errorResponses } from '../../../http/route-options.js';
import { named } from '../../../http/plugin-name.js';

/** Printable labels of the caller's products, as a vector PDF. */
export const labelsRoute = named<CatalogueContext>('labels-route', async (fastify, context) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The caller's own catalogue keeps the spec's page address; any other catalogue's labels link
  // to the page under that catalogue, which works for every member who scans them.
  const productPage = (catalogue: CurrentCatalogue) => (id: string) =>
    catalogue.personal && catalogue.id === catalogue.actorId
      ? `${app.config.publicUrl}/details/product/${encodeURIComponent(id)}`
      : `${app.config.publicUrl}/catalogues/${encodeURIComponent(catalogue.id)}/products/${encodeURIComponent(id)}`;

  /** The labels as a streamed PDF: every id must be one of the catalogue's products. */
  const sendLabels = async (
    request: FastifyRequest,
    reply: FastifyReply,
    {
      ids,
      layout,
      copies,
      skip,
    }: { ids: string[]; layout: LabelLayout; copies: number; skip: number },
  ) => {
    const catalogue = currentCatalogue(request);
    if (ids.length * copies > LABELS_MAX) throw new HttpError(400, M.tooManyLabels);
    const found = new Map(
      (await context.repository.findMany(catalogue.id, ids)).map((row): [string, ProductRow] => [
        row.id,
        row,
      ]),
    );
    const products = ids.map((id) => found.get(id));
    if (products.some((product) => product === undefined)) throw notFound(M.labelsNotFound);
    const pageUrl = productPage(catalogue);
    return sendLabelsPdf(
      request,
      reply,
      ({ productLabel }) =>
        (products as ProductRow[]).map((product) => productLabel(product, pageUrl(product.id))),
      { layout, copies, skip, filename: 'stockroom-labels' },
    );
  };

  const description = `One label per product and copy, in the order of \`ids\` (an id may repeat), at most ${LABELS_MAX.toLocaleString('en-US')} labels a request, copies included (else 400). \`layout\`: ${LABEL_LAYOUTS.join(', ')} (Avery L7160: A4 sheets of 3 × 7 labels of 63.5 × 38.1 mm; Avery 5160: US Letter sheets of 3 × 10 labels of 2.625 × 1 in; a 62 mm roll cut to 62 × 40 mm, and 2 × 1 in labels, one a page). \`skip\` leaves that many labels of the first sheet blank, for a sheet already partly used. Each label shows the name (in any script), the SKU, the price and the barcode as vector bars (EAN-8, UPC-A or EAN-13 for a GTIN, Code 128 otherwise), or, without a barcode, a QR code of the product's page. Any id that is not one of your products: 404, and nothing is made. ${COSTLY_WORK_NOTE}`;
  const responses = {
    200: {
      description: 'The labels, a PDF shown in the browser',
      content: { 'application/pdf': { schema: z.unknown().describe('A PDF document') } },
    },
    ...errorResponses(400, 404),
  };

  app.get(
    '/labels.pdf',
    {
      ...costlyRouteOptions(context.bulkLimiter, 'printLabels'),
      schema: {
        ...productDocs,
        operationId: 'printProductLabels',
        summary: 'Labels of some of your products, as a PDF to print',
        description: `${description} \`ids\` is comma-separated; a selection too long for an address goes in the body of POST instead.`,
        querystring: labelsQuerySchema,
        response: responses,
      },
    },
    (request, reply) => sendLabels(request, reply, request.query),
  );

  app.post(
    '/labels.pdf',
    {
      ...costlyRouteOptions(context.bulkLimiter, 'printLabels'),
      schema: {
        ...productDocs,
        operationId: 'printProductLabelsFromBody',
        summary: 'Labels of some of your products, as a PDF to print (a long selection)',
        description: `The same as GET, with \`{ids, layout, copies, skip}\` as a JSON body, for selections too long for an address (a thousand ids). ${description}`,
        body: labelsBodySchema,
        response: responses,
      },
    },
    (request, reply) => sendLabels(request, reply, request.body),
  );
});
