import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CATALOGUE_ACTIONS,
  can,
  roleCannot,
  type CatalogueAction,
  type CatalogueRole,
} from '../../../shared/catalogue-roles.js';
import { messageSchema } from '../../../shared/schemas/common.js';
import {
  catalogueBodySchema,
  catalogueMessageResponseSchema,
  catalogueUpdateSchema,
  catalogueResponseSchema,
  cataloguesResponseSchema,
  memberParamsSchema,
  memberResponseSchema,
  memberRoleBodySchema,
  membersResponseSchema,
  transferBodySchema,
} from '../../../shared/schemas/catalogues.js';
import { currentSession } from '../../http/authenticate.js';
import { errorResponses, rateLimit } from '../../http/route-options.js';
import type { DB } from '../../infra/db/handle.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import {
  recordCatalogueDeleted,
  recordCatalogueUpdated,
  recordMemberGone,
} from '../live-events/index.js';
import { CATALOGUE_NOT_FOUND } from './membership.js';
import { CatalogueRepository } from './repository.js';
import { currentCatalogue } from './scope.js';

/** What the catalogue routes answer, word for word. */
const CATALOGUE_MESSAGES = {
  created: 'Catalogue created',
  renamed: 'Catalogue renamed',
  updated: 'Catalogue updated',
  deleted: 'Catalogue deleted',
  personalNotDeletable: 'Your personal catalogue cannot be deleted',
  handedOver: 'Ownership handed over',
  onlyToAdmin: 'Ownership can only be handed to an admin',
  personalNotTransferable: 'Your personal catalogue cannot be handed over',
  roleChanged: 'Role changed',
  ownerRoleFixed: "The owner's role cannot be changed",
  memberNotFound: 'Member not found',
  memberRemoved: 'Member removed',
  left: 'You left the catalogue',
  ownerStays: 'The owner cannot leave or be removed; hand over ownership first',
} as const;
const C = CATALOGUE_MESSAGES;

const docs = { tags: ['catalogues'] };
const conflict = (message: string) => new HttpError(409, message);

/**
 * The role a write needs, checked again inside its transaction with the memberships locked
 * (repository.locked): a member removed or demoted since the request's check changes nothing.
 */
function allowed(role: CatalogueRole | undefined, action: CatalogueAction): CatalogueRole {
  if (!role) throw notFound(CATALOGUE_NOT_FOUND);
  if (!can(role, action)) throw new HttpError(403, roleCannot(role, action));
  return role;
}

const repositoryOf = (fastify: FastifyInstance) =>
  new CatalogueRepository(fastify.db, fastify.database.dialect);

/** `GET` and `POST /api/catalogues`: the caller's catalogues, and a new one. */
export const cataloguesRoutes: FastifyPluginAsync = async (fastify) => {
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
        description: 'The caller becomes its owner. Any signed-in user.',
        body: catalogueBodySchema,
        response: { 201: catalogueMessageResponseSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { user } = currentSession(request);
      const catalogue = await catalogues.create(user.id, request.body.name, app.clock.now());
      return reply.code(201).send({ message: C.created, catalogue });
    },
  );
};

/**
 * One catalogue and its members, at `/api/catalogues/{catalogueId}`, registered in its catalogue
 * scope: a non-member gets 404 and a role that may not take a route's action 403 before its
 * handler runs; every write checks the role again with the memberships locked.
 */
export const catalogueRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const catalogues = repositoryOf(fastify);
  const limit = rateLimit(app.rateLimits, app.rateLimits.general);
  const config = (catalogueAction: CatalogueAction) => ({ config: { ...limit, catalogueAction } });

  /** The catalogue as the caller sees it after a change, read in the change's transaction. */
  const seen = async (trx: DB, catalogueId: string, userId: string) =>
    (await catalogues.findFor(catalogueId, userId, trx))!;

  app.get(
    '/',
    {
      ...config('read'),
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
      ...config('renameCatalogue'),
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
        if (name !== undefined) await catalogues.rename(trx, id, name, now);
        if (reorderPoint !== undefined) {
          await app.products.repository.setCatalogueReorderPoint(trx, id, reorderPoint, now);
        }
        await recordCatalogueUpdated(trx, id, now);
        if (name !== undefined) {
          const changes = { name: { before: before.name, after: name } };
          await app.activity.record(trx, current, 'catalogue.renamed', { data: { changes } }, now);
        }
        return seen(trx, id, user.id);
      });
      return { message: request.body.name === undefined ? C.updated : C.renamed, catalogue };
    },
  );

  app.delete(
    '/',
    {
      ...config('deleteCatalogue'),
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
        await catalogues.delete(trx, id);
        return keys;
      });
      // The files go once nothing refers to them any more, like a product's.
      await app.products.service.removeImages(imageKeys);
      return { message: C.deleted };
    },
  );

  app.post(
    '/transfer',
    {
      ...config('transferOwnership'),
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

  app.get(
    '/members',
    {
      ...config('read'),
      schema: {
        ...docs,
        operationId: 'listCatalogueMembers',
        summary: "A catalogue's members and their roles",
        description: 'The owner first, then by name.',
        response: { 200: membersResponseSchema },
      },
    },
    async (request) => ({ members: await catalogues.members(currentCatalogue(request).id) }),
  );

  app.patch(
    '/members/:userId',
    {
      ...config('manageMembers'),
      schema: {
        ...docs,
        operationId: 'changeMemberRole',
        summary: "Change a member's role",
        description: `Any role but owner (ownership is handed over instead); the owner's role cannot be changed (409).`,
        params: memberParamsSchema.omit({ catalogueId: true }),
        body: memberRoleBodySchema,
        response: { 200: memberResponseSchema, ...errorResponses(400, 409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const current = currentCatalogue(request);
      const { id } = current;
      const { userId } = request.params;
      const member = await catalogues.locked(id, user.id, async (trx, role) => {
        allowed(role, 'manageMembers');
        const target = await catalogues.member(trx, id, userId);
        if (!target) throw notFound(C.memberNotFound);
        if (target.role === 'owner') throw conflict(C.ownerRoleFixed);
        await catalogues.setRole(trx, id, userId, request.body.role);
        const now = app.clock.now();
        await recordCatalogueUpdated(trx, id, now);
        const who = { id: target.user.id, name: target.user.name };
        const data = {
          member: who,
          changes: { role: { before: target.role, after: request.body.role } },
        };
        await app.activity.record(trx, current, 'member.role_changed', { data }, now);
        return { ...target, role: request.body.role };
      });
      return { message: C.roleChanged, member };
    },
  );

  app.delete(
    '/members/:userId',
    {
      // Leaving needs no right but membership; removing someone else is checked in the handler.
      ...config('read'),
      schema: {
        ...docs,
        operationId: 'removeCatalogueMember',
        summary: 'Remove a member, or leave the catalogue',
        description: `Takes no body. The caller's own id leaves the catalogue (any role but owner); another member's removes them (a role that may ${CATALOGUE_ACTIONS.manageMembers.text}: ${CATALOGUE_ACTIONS.manageMembers.roles.join(', ')}; else 403). The owner cannot leave or be removed (409). Takes effect on the member's next request.`,
        params: memberParamsSchema.omit({ catalogueId: true }),
        response: { 200: messageSchema, ...errorResponses(400, 409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const current = currentCatalogue(request);
      const { id } = current;
      const { userId } = request.params;
      const leaving = userId === user.id;
      await catalogues.locked(id, user.id, async (trx, role) => {
        allowed(role, leaving ? 'read' : 'manageMembers');
        const target = await catalogues.member(trx, id, userId);
        if (!target) throw notFound(C.memberNotFound);
        if (target.role === 'owner') throw conflict(C.ownerStays);
        await catalogues.remove(trx, id, userId);
        // Their streams end on every instance; the others hear of the change.
        const now = app.clock.now();
        await recordMemberGone(trx, id, userId, now);
        const who = { id: target.user.id, name: target.user.name };
        const data = { member: who, role: target.role, left: leaving };
        await app.activity.record(trx, current, 'member.removed', { data }, now);
      });
      return { message: leaving ? C.left : C.memberRemoved };
    },
  );
};
