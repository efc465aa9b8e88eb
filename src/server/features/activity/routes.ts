import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  activityEntryParamsSchema,
  activityQuerySchema,
  activityResponseSchema,
  undoResponseSchema,
  type ActivityResponse,
} from '../../../shared/schemas/activity.js';
import { ACTIVITY_MESSAGES } from '../../../shared/activity.js';
import { errorResponses } from '../../http/route-options.js';
import { notFound } from '../../lib/http-error.js';
import { actionConfig, currentCatalogue } from '../catalogues/index.js';
import { decodeIdCursor, encodeIdCursor } from '../../lib/id-cursor.js';
import { entriesQuery, rangeOf, toEntry, type EntryRow } from './entries.js';
import { undoEntry } from './undo.js';
import { named } from '../../http/plugin-name.js';

const docs = { tags: ['activity'] };

/**
 * The entry id a path's text is, or undefined when no entry could have it (not a whole number, or
 * past what an id reaches): an unknown entry, as other routes treat malformed ids.
 */
function entryIdOf(text: string): number | undefined {
  if (!/^\d{1,16}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

/**
 * A catalogue's activity log and undo, at `/activity` of the personal catalogue's scope
 * (`/api/products/activity`) and of a shared one's (`/api/catalogues/{catalogueId}/activity`).
 * Every member reads it; an undo needs the role that may make the change undone (checked in the
 * handler, since it depends on the entry).
 */
export const activityRoutes = named('activity-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/activity',
    {
      ...actionConfig(app, 'read'),
      schema: {
        ...docs,
        operationId: 'listActivity',
        summary: 'Who changed what in the catalogue, newest first',
        description:
          '`product`, `member` (a user id), `kind`, `from` and `to` (ISO dates or times, inclusive; a date alone is its whole day, UTC) narrow the entries. Pass `nextCursor` back as `cursor` (with the same filters) for older ones; it is null on the last page. `undoable` says whether the caller may undo the entry now: a stock movement, an edit or a delete, less than 7 days old, not undone yet, by a role that may make that change.',
        querystring: activityQuerySchema,
        response: { 200: activityResponseSchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      const catalogue = currentCatalogue(request);
      const { limit, cursor, product, member, kind, from, to } = request.query;
      const before = cursor === undefined ? undefined : decodeIdCursor(cursor);
      const filter = { product, member, kind, before, ...rangeOf(from, to) };
      const rows = (await entriesQuery(
        app.db,
        catalogue.id,
        filter,
        limit + 1,
      ).execute()) as EntryRow[];
      const page = rows.slice(0, limit);
      const now = app.clock.now();
      const answer: ActivityResponse = {
        entries: page.map((row) => toEntry(row, catalogue.role, now)),
        nextCursor: rows.length > limit ? encodeIdCursor(page.at(-1)!.id) : null,
      };
      return answer;
    },
  );

  app.post(
    '/activity/:entryId/undo',
    {
      ...actionConfig(app, 'read'),
      schema: {
        ...docs,
        operationId: 'undoActivity',
        summary: 'Undo a change, within 7 days',
        description:
          'Takes no body. A stock movement gets the opposite movement (409 when the stock would go below 0); an edit gets back the values it replaced (409 naming the fields changed since); a delete brings the product back with its id, codes, tags, picture and history (409 when another product now has its SKU or barcode). Creates, imports, bulk deletes, member changes and undos cannot be undone (409), nor can changes older than 7 days (409) or undone already (409). Needs the role that may make the change (403). Answers the new `undo` entry.',
        params: activityEntryParamsSchema,
        response: { 200: undoResponseSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const catalogue = currentCatalogue(request);
      const entryId = entryIdOf(request.params.entryId);
      if (entryId === undefined) throw notFound(ACTIVITY_MESSAGES.entryNotFound);
      const entry = await undoEntry(app, catalogue, entryId);
      return { entry };
    },
  );
});
