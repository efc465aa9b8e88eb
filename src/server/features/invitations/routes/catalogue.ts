import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { M, T } from '../../../../shared/messages.js';
import {
  catalogueInvitationParamsSchema,
  catalogueParamsSchema,
  INVITATION_DAYS,
  INVITATIONS_PER_DAY,
  invitationBodySchema,
  invitationResponseSchema,
  invitationsResponseSchema,
} from '../../../../shared/schemas/catalogues.js';
import { messageSchema } from '../../../../shared/schemas/common.js';
import { currentSession } from '../../../http/authenticate.js';
import { actionConfig, currentCatalogue } from '../../catalogues/index.js';
import { errorResponses, rateLimit } from '../../../http/route-options.js';
import { named } from '../../../http/plugin-name.js';

/**
 * `/api/catalogues/{catalogueId}/invitations…`: a catalogue's invitations, for the members who
 * may manage members (owner and admins). Registered in the catalogue's scope, which answers 404
 * to non-members and 403 to members whose role cannot.
 */
export const catalogueInvitationRoutes = named('catalogue-invitation-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { invitations, rateLimits } = app;

  app.get(
    '/invitations',
    {
      ...actionConfig(app, 'manageMembers'),
      schema: {
        operationId: 'listCatalogueInvitations',
        tags: ['catalogues'],
        summary: "The catalogue's pending invitations",
        description: 'Pending, unexpired invitations, newest first.',
        params: catalogueParamsSchema,
        response: { 200: invitationsResponseSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({ invitations: await invitations.list(currentCatalogue(request).id) }),
  );

  app.post(
    '/invitations',
    {
      config: { ...rateLimit(rateLimits, rateLimits.sensitive), catalogueAction: 'manageMembers' },
      schema: {
        operationId: 'inviteToCatalogue',
        tags: ['catalogues'],
        summary: 'Invite someone by e-mail',
        description: `Invites an e-mail address with a role (not owner: ownership is only handed over). The answer is the same whether or not the address has an account: the invitation waits for whoever signs up with it and confirms it. The mail (who invites, the catalogue, the role, the expiry, a link to \`/invitations\`) goes within the address's mail budget; over it, the invitation is still made and the answer is the same. It expires after ${INVITATION_DAYS} days. A pending invitation of the same address is replaced (new role, new expiry, new mail). An address that is already a member: 409. A catalogue sends at most ${INVITATIONS_PER_DAY} invitations in any 24 hours (replacements count), and an account at most ${app.config.accountBudgets.invitationsPerDay} over all its catalogues (\`INVITATIONS_PER_ACCOUNT\`; while the account is younger than a day, a fifth of that but at least a catalogue's ${INVITATIONS_PER_DAY}): beyond, 429 with \`Retry-After\`.`,
        params: catalogueParamsSchema,
        body: invitationBodySchema,
        response: { 201: invitationResponseSchema, ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user } = currentSession(request);
      const { email, role } = request.body;
      const invitation = await invitations.invite(currentCatalogue(request), user, email, role);
      return reply.code(201).send({ message: T.invitationSent(email), invitation });
    },
  );

  app.delete(
    '/invitations/:invitationId',
    {
      ...actionConfig(app, 'manageMembers'),
      schema: {
        operationId: 'revokeInvitation',
        tags: ['catalogues'],
        summary: 'Revoke a pending invitation',
        description: `It can no longer be accepted and leaves the invitee's list. An invitation of another catalogue, or one already answered or revoked: 404 \`${M.invitationNotFound}\`.`,
        params: catalogueInvitationParamsSchema,
        response: { 200: messageSchema, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      await invitations.revoke(currentCatalogue(request), request.params.invitationId);
      return { message: M.invitationRevoked };
    },
  );
});
