import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageSchema } from '../../../shared/schemas/common.js';
import {
  catalogueBodySchema,
  catalogueMessageResponseSchema,
  catalogueUpdateSchema,
  catalogueResponseSchema,
  cataloguesResponseSchema,
  transferBodySchema,
} from '../../../shared/schemas/catalogues.js';
import { currentSession } from '../../http/authenticate.js';
import { errorResponses, rateLimit } from '../../http/route-options.js';
import type { DB } from '../../infra/db/handle.js';
import { notFound } from '../../lib/http-error.js';
import { recordCatalogueDeleted, recordCatalogueUpdated } from '../live-events/index.js';
import { memberRoutes } from './member-routes.js';
import { CATALOGUE_NOT_FOUND } from './membership.js';
import { allowed, C, conflict, docs, repositoryOf } from './route-support.js';
import { actionConfig } from './route-options.js';
import { currentCatalogue } from './scope.js';
import { named } from '../../http/plugin-name.js';

/** `GET` and `POST /api/catalogues`: the caller's catalogues, and a new one. */
export const cataloguesRoutes = named('catalogues-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const catalogues = repositoryOf(fastify);
  const config = rateLimit(app.rateLimits, app.rateLimits.general);

  app.get(
    '/',
    {
      config,
      schema: {
        ...docs,
        operationId: 'listCatalogues',
        summary: 'The catalogues the signed-in user belongs to',
        description:
          "Their personal catalogue first (the one `/api/products` addresses), then the others by name, each with the caller's role and its number of members. Any signed-in user.",
        response: { 200: cataloguesResponseSchema },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      return { catalogues: await catalogues.listFor(user.id) };
    },
  );

  app.post(
    '/',
    {
      config,
      schema: {
        ...docs,
        operationId: 'createCatalogue',
        summary: 'Create a shared catalogue',
        description: `The caller becomes its owner. Any signed-in user, who may own at most ${app.config.accountBudgets.catalogues} catalogues besides their personal one (\`CATALOGUES_PER_ACCOUNT\`): beyond, 409.`,
        body: catalogueBodySchema,
        response: { 201: catalogueMessageResponseSchema, ...errorResponses(400, 409) },
      },
    },
    async (request, reply) => {
      const { user } = currentSession(request);
      const { name } = request.body;
      const most = app.config.accountBudgets.catalogues;
      const catalogue = await catalogues.create(user.id, name, app.clock.now(), most);
      return reply.code(201).send({ message: C.created, catalogue });
    },
  );
});

/**
 * One catalogue and its members, at `/api/catalogues/{catalogueId}`, registered in its catalogue
 * scope: a non-member gets 404 and a role that may not take a route's action 403 before its
 * handler runs; every write checks the role again with the memberships locked.
 */
export const catalogueRoutes = named('catalogue-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const catalogues = repositoryOf(fastify);

  /** The catalogue as the caller sees it after a change, read in the change's transaction. */
  const seen = async (trx: DB, catalogueId: string, userId: string) =>
    (await catalogues.findFor(catalogueId, userId, trx))!;

  app.get(
    '/',
    {
      ...actionConfig(fastify, 'read'),
      schema: {
        ...docs,
        operationId: 'getCatalogue',
        summary: 'One catalogue',
        description: "Its name, the caller's role and its number of members.",
        response: { 200: catalogueResponseSchema },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const catalogue = await catalogues.findFor(currentCatalogue(request).id, user.id);
      if (!catalogue) throw notFound(CATALOGUE_NOT_FOUND);
      return { catalogue };
    },
  );

  app.patch(
    '/',
    {
      ...actionConfig(fastify, 'renameCatalogue'),
      schema: {
        ...docs,
        operationId: 'renameCatalogue',
        summary: 'Rename a catalogue, or change its default reorder point',
        description:
          'A personal catalogue too. `reorderPoint` is the point of its products that set none of their own: a product is to reorder at or below it.',
        body: catalogueUpdateSchema,
        response: { 200: catalogueMessageResponseSchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const current = currentCatalogue(request);
      const { id } = current;
      const catalogue = await catalogues.locked(id, user.id, async (trx, role) => {
        allowed(role, 'renameCatalogue');
        const now = app.clock.now();
        const before = await seen(trx, id, user.id);
        const { name, reorderPoint } = request.body;
        // Only what really changes is written, logged and told (an entry of each kind, webhooks
        // and live events with them); the values it has already change nothing, as a location's.
        const renamed = name !== undefined && name !== before.name;
        const repointed = reorderPoint !== undefined && reorderPoint !== before.reorderPoint;
        if (!renamed && !repointed) return before;
        if (renamed) {
          await catalogues.rename(trx, id, name, now);
          const changes = { name: { before: before.name, after: name } };
          await app.activity.record(trx, current, 'catalogue.renamed', { data: { changes } }, now);
        }
        if (repointed) {
          await app.products.setCatalogueReorderPoint(trx, id, reorderPoint, now);
          const changes = { reorderPoint: { before: before.reorderPoint, after: reorderPoint } };
          const kind = 'catalogue.reorder_point_changed';
          await app.activity.record(trx, current, kind, { data: { changes } }, now);
        }
        await recordCatalogueUpdated(trx, id, now);
        return seen(trx, id, user.id);
      });
      return { message: request.body.name === undefined ? C.updated : C.renamed, catalogue };
    },
  );

  app.delete(
    '/',
    {
      ...actionConfig(fastify, 'deleteCatalogue'),
      schema: {
        ...docs,
        operationId: 'deleteCatalogue',
        summary: 'Delete a catalogue, its products and their history',
        description: `Takes no body. Its products, their images and history and its members go with it; a personal catalogue cannot be deleted (409).`,
        response: { 200: messageSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const { id } = currentCatalogue(request);
      const imageKeys = await catalogues.locked(id, user.id, async (trx, role, personal) => {
        allowed(role, 'deleteCatalogue');
        if (personal) throw conflict(C.personalNotDeletable);
        const keys = await catalogues.imageKeys(trx, id);
        // Told to every member first: the notices live in their personal catalogues.
        const members = await catalogues.members(id, trx);
        const memberIds = members.map((member) => member.user.id);
        await recordCatalogueDeleted(trx, id, memberIds, app.clock.now());
        await app.products.deleteCatalogueProducts(trx, id);
        await catalogues.delete(trx, id);
        return keys;
      });
      // The files go once nothing refers to them any more, like a product's.
      await app.products.removeImages(imageKeys);
      return { message: C.deleted };
    },
  );

  app.post(
    '/transfer',
    {
      ...actionConfig(fastify, 'transferOwnership'),
      schema: {
        ...docs,
        operationId: 'transferCatalogue',
        summary: "Hand a catalogue's ownership to one of its admins",
        description: `The admin becomes its owner and the caller an admin. Anyone but an admin of the catalogue (409); a personal catalogue cannot be handed over (409).`,
        body: transferBodySchema,
        response: { 200: catalogueMessageResponseSchema, ...errorResponses(400, 409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const { id } = currentCatalogue(request);
      const { userId } = request.body;
      const catalogue = await catalogues.locked(id, user.id, async (trx, role, personal) => {
        allowed(role, 'transferOwnership');
        if (personal) throw conflict(C.personalNotTransferable);
        const target = await catalogues.member(trx, id, userId);
        if (target?.role !== 'admin') throw conflict(C.onlyToAdmin);
        await catalogues.setRole(trx, id, user.id, 'admin');
        await catalogues.setRole(trx, id, userId, 'owner');
        await recordCatalogueUpdated(trx, id, app.clock.now());
        return seen(trx, id, user.id);
      });
      return { message: C.handedOver, catalogue };
    },
  );

  // Its members' routes, in the same scope; registered last, after the catalogue's own in the API
  // document.
  await fastify.register(memberRoutes);
});
