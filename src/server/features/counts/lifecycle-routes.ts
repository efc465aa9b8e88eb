import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idempotentWriteHeadersSchema } from '../../../shared/schemas/idempotency.js';
import {
  C,
  COUNT_PAGE_DEFAULT,
  countParamsSchema,
  countPostedSchema,
  countPostSchema,
  countReviewedSchema,
  countSavedSchema,
} from '../../../shared/schemas/counts/counts.js';
import { errorResponses } from '../../http/route-options.js';
import { actionConfig, currentCatalogue } from '../catalogues/index.js';
import { catalogueWrite, sendCatalogueWrite, type WriteOutcome } from '../writes/index.js';
import { countDetail, countStatusOutcome, findCount, withPath } from './reads.js';
import { countOf, moveCount, postCount } from './writes.js';
import { named } from '../../http/plugin-name.js';

/**
 * A count's review, posting and cancelling: editors and above. Posting (and its undo, from the
 * activity log) changes stock through the write pipeline: one activity entry `count.posted`, its
 * webhooks, one live event.
 */
export const countLifecycleRoutes = named('count-lifecycle-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { countPlaces: places } = app;
  const tags = ['counts'];

  app.post(
    '/:countId/review',
    {
      ...actionConfig(app, 'manageCounts'),
      schema: {
        operationId: 'reviewCount',
        tags,
        summary: 'Move a count to review',
        description: `Counting may go on (recounts); a blind count shows its expected quantities from now on. Answers the count as \`GET …/counts/{countId}\` does (the first ${COUNT_PAGE_DEFAULT} lines, each line's variance in units and at cost, the summary, the places never counted). A count in review already is answered again; one posted or cancelled is 409.`,
        params: countParamsSchema,
        headers: idempotentWriteHeadersSchema,
        response: { 200: countReviewedSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { countId } = request.params;
      await catalogueWrite(
        { request, reply },
        { idempotency: [request.params] },
        async (w): Promise<WriteOutcome> => {
          const count = await countOf(w, countId);
          if (count.status === 'review')
            return { answer: { status: 200, body: {} }, unchanged: true };
          await moveCount(w, countId, 'review');
          return {
            answer: { status: 200, body: {} },
            keepsVersion: true,
            live: {
              kind: 'count.updated',
              data: { countId, status: 'review', stockChanged: false },
            },
          };
        },
      );
      const row = (await findCount(app.db, catalogue.id, countId))!;
      const detail = await countDetail(app.db, places, row, catalogue.role, {
        limit: COUNT_PAGE_DEFAULT,
      });
      return reply.code(200).send({ message: C.inReview, ...detail });
    },
  );

  app.post(
    '/:countId/post',
    {
      ...actionConfig(app, 'manageCounts'),
      schema: {
        operationId: 'postCount',
        tags,
        summary: 'Post a count: its differences become stock movements',
        description: `Each line's \`counted − expected\` is added to what its location holds now, as a movement with reason \`counted\` and the count's id, all in one transaction: stock moved while counting stays moved (a decrease the location no longer covers stops at 0). \`uncountedAsZero: true\` counts the scope's places never counted as 0 first; otherwise they are left alone. The count is posted and read-only from then on; the posting can be undone from the activity log for 7 days (409 when a location no longer holds what it added). Posted or cancelled already: 409. One activity entry and webhook \`count.posted\`.`,
        params: countParamsSchema,
        headers: idempotentWriteHeadersSchema,
        body: countPostSchema,
        response: { 200: countPostedSchema, ...errorResponses(400, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { countId } = request.params;
      return sendCatalogueWrite(
        { request, reply },
        { idempotency: [request.params, request.body] },
        async (w): Promise<WriteOutcome> => {
          const { uncountedAsZero } = request.body;
          const current = await countOf(w, countId);
          // The scope's places are read only to count those never counted as 0: a posting of
          // the lines alone reads the lines alone.
          const subtree =
            uncountedAsZero && current.scope_kind === 'location'
              ? ((await places.subtree(catalogue.id, current.scope_location_id!)) ?? [])
              : [];
          const { count, applied } = await postCount(w, countId, { uncountedAsZero, subtree });
          const row = (await findCount(w.trx, catalogue.id, countId))!;
          const units = applied.reduce((sum, line) => sum + line.delta, 0);
          return {
            answer: {
              status: 200,
              body: {
                message: C.posted(applied.length),
                count: await withPath(places, row),
                movements: applied.length,
              },
            },
            live: {
              kind: 'count.updated',
              data: { countId, status: 'posted', stockChanged: true },
            },
            activity: {
              kind: 'count.posted',
              details: {
                data: {
                  countId,
                  name: count.name,
                  lines: applied.length,
                  units,
                  products: new Set(applied.map((line) => line.productId)).size,
                },
              },
            },
          };
        },
      );
    },
  );

  app.post(
    '/:countId/cancel',
    {
      ...actionConfig(app, 'manageCounts'),
      schema: {
        operationId: 'cancelCount',
        tags,
        summary: 'Cancel a count',
        description: `Its lines stay readable; nothing changes stock. Posted or cancelled already: 409.`,
        params: countParamsSchema,
        headers: idempotentWriteHeadersSchema,
        response: { 200: countSavedSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { countId } = request.params;
      return sendCatalogueWrite(
        { request, reply },
        { idempotency: [request.params] },
        async (w): Promise<WriteOutcome> => {
          await moveCount(w, countId, 'cancelled');
          return countStatusOutcome(w, places, countId, {
            status: 200,
            message: C.cancelled,
            to: 'cancelled',
          });
        },
      );
    },
  );
});
