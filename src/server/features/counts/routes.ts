import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idempotentWriteHeadersSchema } from '../../../shared/schemas/idempotency.js';
import {
  C,
  COUNT_LINES_MAX,
  COUNT_LIST_MAX,
  countCreateSchema,
  countDetailSchema,
  countLineInputSchema,
  countLineSavedSchema,
  countPageQuerySchema,
  countParamsSchema,
  countSavedSchema,
  countsResponseSchema,
} from '../../../shared/schemas/counts/counts.js';
import { errorResponses } from '../../http/route-options.js';
import { notFound } from '../../lib/http-error.js';
import { actionConfig, currentCatalogue } from '../catalogues/index.js';
import { sendCatalogueWrite, type WriteOutcome } from '../writes/index.js';
import { countFileRoutes } from './file-routes.js';
import { countLifecycleRoutes } from './lifecycle-routes.js';
import { countDetail, countStatusOutcome, findCount, listCounts } from './reads.js';
import { hidesExpected, presentLine } from './rows.js';
import { countLine, startCount } from './writes.js';
import { named } from '../../http/plugin-name.js';

/**
 * A catalogue's stock counts, at `/api/counts` for the caller's personal catalogue and at
 * `/api/catalogues/{catalogueId}/counts` for any: every member reads them, whoever may adjust
 * stock counts lines, editors and above start, review, post and cancel them.
 */
export const countRoutes = named('count-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { countPlaces: places } = app;
  const tags = ['counts'];

  app.get(
    '/',
    {
      ...actionConfig(app, 'read'),
      schema: {
        operationId: 'listCounts',
        tags,
        summary: "The catalogue's stock counts",
        description: `The newest ${COUNT_LIST_MAX} counts, newest first, each with how many lines it holds.`,
        response: { 200: countsResponseSchema },
      },
    },
    async (request) => ({ counts: await listCounts(app.db, places, currentCatalogue(request).id) }),
  );

  app.post(
    '/',
    {
      ...actionConfig(app, 'manageCounts'),
      schema: {
        operationId: 'startCount',
        tags,
        summary: 'Start a stock count',
        description: `Over a location with its sub-locations (\`{kind: "location", locationId}\`, 404 \`${C.locationNotFound}\` when it is not the catalogue's), the products of a tag (\`{kind: "tag", tag}\`) or the whole catalogue (\`{kind: "catalogue"}\`). \`blind\` hides the expected quantities from everyone but owners and admins until the review. At most one open count (open or in review) per scope, and none over a location above or below an open one: 409 \`${C.scopeBusy}\`. Without a \`name\`, one is made from the scope.`,
        headers: idempotentWriteHeadersSchema,
        body: countCreateSchema,
        response: { 201: countSavedSchema, ...errorResponses(400, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      return sendCatalogueWrite(
        { request, reply },
        { idempotency: [request.body] },
        async (w): Promise<WriteOutcome> => {
          const countId = await startCount(w, request.body, (id) =>
            places.pathOf(catalogue.id, id),
          );
          return countStatusOutcome(w, places, countId, {
            status: 201,
            message: C.created,
            to: 'open',
          });
        },
      );
    },
  );

  app.get(
    '/:countId',
    {
      ...actionConfig(app, 'read'),
      schema: {
        operationId: 'getCount',
        tags,
        summary: 'A count with its lines',
        description: `A page of its lines (\`limit\`, 500 by default, at most 1,000; \`cursor\`: the \`nextCursor\` of the page before), in product and location order. Where \`expected\` shows (not a blind count before its review, unless to an owner or admin), each line's variance in units and at cost, the \`summary\` of every line, and while the count is open or in review the places of its scope never counted (\`uncounted\`: how many, and the first 200). Every read follows the count's size and its scope's, never the rest of the catalogue. A count of another catalogue: 404 \`${C.notFound}\`.`,
        params: countParamsSchema,
        querystring: countPageQuerySchema,
        response: { 200: countDetailSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const catalogue = currentCatalogue(request);
      const row = await findCount(app.db, catalogue.id, request.params.countId);
      if (!row) throw notFound(C.notFound);
      return countDetail(app.db, places, row, catalogue.role, request.query);
    },
  );

  app.post(
    '/:countId/lines',
    {
      ...actionConfig(app, 'countStock'),
      schema: {
        operationId: 'countLine',
        tags,
        summary: 'Count a product at a location',
        description: `\`counted\` replaces what the line held, or with \`add: true\` adds to it; the line says who counted it last and when. A line's first count takes the quantity at the location then as its \`expected\`. Only while the count is open or in review (else 409 \`${C.notOpen}\`), for a product and location of its scope (else 409 \`${C.outOfScope}\`); at most ${COUNT_LINES_MAX.toLocaleString('en-US')} lines. The other counters' screens hear of it (a live event \`count.line\`, without \`expected\`). With an Idempotency-Key, a line queued offline and sent twice counts once.`,
        params: countParamsSchema,
        headers: idempotentWriteHeadersSchema,
        body: countLineInputSchema,
        response: { 200: countLineSavedSchema, ...errorResponses(400, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { countId } = request.params;
      return sendCatalogueWrite(
        { request, reply },
        { idempotency: [request.params, request.body] },
        async (w): Promise<WriteOutcome> => {
          const row = await countLine(w, countId, request.body);
          const count = (await findCount(w.trx, catalogue.id, countId))!;
          const line = presentLine(row, hidesExpected(count, catalogue.role));
          return {
            answer: { status: 200, body: { message: C.counted, line } },
            keepsVersion: true,
            live: {
              kind: 'count.line',
              data: {
                countId,
                productId: line.productId,
                locationId: line.locationId,
                counted: line.counted,
                countedBy: line.countedBy,
                countedAt: line.countedAt,
              },
            },
          };
        },
      );
    },
  );

  await app.register(countLifecycleRoutes);
  await app.register(countFileRoutes);
});
