import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CATALOGUE_ACTIONS } from '../../../shared/catalogue-roles.js';
import { messageSchema } from '../../../shared/schemas/common.js';
import {
  memberParamsSchema,
  memberResponseSchema,
  memberRoleBodySchema,
  membersResponseSchema,
} from '../../../shared/schemas/catalogues.js';
import { currentSession } from '../../http/authenticate.js';
import { errorResponses } from '../../http/route-options.js';
import { notFound } from '../../lib/http-error.js';
import { recordCatalogueUpdated, recordMemberGone } from '../live-events/index.js';
import { allowed, C, conflict, docs, repositoryOf } from './route-support.js';
import { actionConfig } from './route-options.js';
import { currentCatalogue } from './scope.js';
import { named } from '../../http/plugin-name.js';

/**
 * A catalogue's members, at `/api/catalogues/{catalogueId}/members…`: registered by
 * `catalogueRoutes`, so in its catalogue scope, under the same checks.
 */
export const memberRoutes = named('member-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const catalogues = repositoryOf(fastify);

  app.get(
    '/members',
    {
      ...actionConfig(fastify, 'read'),
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
      ...actionConfig(fastify, 'manageMembers'),
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
      ...actionConfig(fastify, 'read'),
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
});
