import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LABEL_LAYOUTS, LABELS_MAX } from '../../../shared/labels.js';
import {
  L,
  locationLabelsBodySchema,
  locationLabelsQuerySchema,
} from '../../../shared/schemas/locations/locations.js';
import { COSTLY_WORK_NOTE, costlyTurn } from '../../http/costly-work.js';
import { errorResponses, rateLimit } from '../../http/route-options.js';
import { bulkLimit } from '../../http/rate-limits.js';
import { HttpError } from '../../lib/http-error.js';
import { sendLabelsPdf } from '../catalogue-ops/index.js';
import { currentCatalogue } from '../catalogues/index.js';
import { named } from '../../http/plugin-name.js';

type LabelsAsked = z.output<typeof locationLabelsBodySchema>;

/**
 * Labels of locations, on the same sheets and rolls as products' labels: each location's path
 * in words and its code, as Code 128 bars (or, for a long code, a QR code) that `/scan` reads.
 */
export const locationLabelRoutes = named('location-label-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { locations, rateLimits } = app;
  // A PDF of a thousand labels is costly: the budget of the other catalogue-wide operations.
  const config = {
    ...rateLimit(rateLimits, bulkLimit(rateLimits)),
    catalogueAction: 'printLabels',
  } as const;

  /** The labels asked for, by GET or POST: every id must be one of the catalogue's locations. */
  const sendLabels = async (request: FastifyRequest, reply: FastifyReply, asked: LabelsAsked) => {
    if (asked.ids.length * asked.copies > LABELS_MAX) throw new HttpError(400, L.tooManyLabels);
    const found = await locations.pathsOf(currentCatalogue(request).id, asked.ids);
    return sendLabelsPdf(
      request,
      reply,
      ({ codeLabel }) => found.map(({ path, code }) => codeLabel(path, code)),
      { ...asked, filename: 'stockroom-location-labels' },
    );
  };

  const description = `One label per location and copy, in the order of \`ids\` (an id may repeat), at most ${LABELS_MAX.toLocaleString('en-US')} labels a request, copies included (else 400). \`layout\`: ${LABEL_LAYOUTS.join(', ')}, as for products' labels; \`skip\` leaves that many labels of the first sheet blank. Each label shows the location's path and its code as Code 128 bars (a code over 16 characters as a QR code). Any id that is not one of the catalogue's locations: 404, and nothing is made. ${COSTLY_WORK_NOTE}`;
  const responses = {
    200: {
      description: 'The labels, a PDF shown in the browser',
      content: { 'application/pdf': { schema: z.unknown().describe('A PDF document') } },
    },
    ...errorResponses(400, 404),
  };
  const tags = ['locations'];

  app.get(
    '/labels.pdf',
    {
      config,
      preHandler: costlyTurn,
      schema: {
        operationId: 'printLocationLabels',
        tags,
        summary: 'Labels of some locations, as a PDF to print',
        description: `${description} \`ids\` is comma-separated; a long selection goes in the body of POST instead.`,
        querystring: locationLabelsQuerySchema,
        response: responses,
      },
    },
    (request, reply) => sendLabels(request, reply, request.query),
  );

  app.post(
    '/labels.pdf',
    {
      config,
      preHandler: costlyTurn,
      schema: {
        operationId: 'printLocationLabelsFromBody',
        tags,
        summary: 'Labels of some locations, as a PDF to print (a long selection)',
        description: `The same as GET, with \`{ids, layout, copies, skip}\` as a JSON body. ${description}`,
        body: locationLabelsBodySchema,
        response: responses,
      },
    },
    (request, reply) => sendLabels(request, reply, request.body),
  );
});
