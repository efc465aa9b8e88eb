import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { M, T } from '../../../../shared/messages.js';
import {
  catalogueMessageResponseSchema,
  invitationParamsSchema,
  receivedInvitationsResponseSchema,
} from '../../../../shared/schemas/catalogues.js';
import { messageSchema } from '../../../../shared/schemas/common.js';
import { currentSession } from '../../../http/authenticate.js';
import { errorResponses, rateLimit } from '../../../http/route-options.js';
import { named } from '../../../http/plugin-name.js';

const NOT_FOUND = `404 \`${M.invitationNotFound}\` when it is not addressed to your confirmed e-mail, was revoked or replaced, or was answered; 404 \`${M.invitationExpired}\` when it is yours but expired.`;

/** `/api/invitations…`: the invitations waiting for the signed-in user's address, and answers. */
export const receivedInvitationRoutes = named('received-invitation-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { invitations, rateLimits } = app;

  app.get(
    '/',
    {
      config: rateLimit(rateLimits, rateLimits.general),
      schema: {
        operationId: 'listReceivedInvitations',
        tags: ['catalogues'],
        summary: 'The invitations waiting for you',
        description:
          'Pending, unexpired invitations to your confirmed e-mail, newest first. An invitation sent before you had an account is here once you sign up with that address and confirm it.',
        response: { 200: receivedInvitationsResponseSchema },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      return { invitations: await invitations.received(user) };
    },
  );

  app.post(
    '/:invitationId/accept',
    {
      config: rateLimit(rateLimits, rateLimits.general),
      schema: {
        operationId: 'acceptInvitation',
        tags: ['catalogues'],
        summary: 'Join a catalogue you were invited to',
        description: `You become a member with the invitation's role (a member already keeps their role); the catalogue's members are told (\`catalogue.updated\`) and your event streams start carrying it. Accepting twice, even at once, joins once: the second is a 404. ${NOT_FOUND}`,
        params: invitationParamsSchema,
        response: { 200: catalogueMessageResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const catalogue = await invitations.accept(user, request.params.invitationId);
      return { message: T.joinedCatalogue(catalogue.name), catalogue };
    },
  );

  app.post(
    '/:invitationId/decline',
    {
      config: rateLimit(rateLimits, rateLimits.general),
      schema: {
        operationId: 'declineInvitation',
        tags: ['catalogues'],
        summary: 'Decline an invitation',
        description: `The invitation is answered and leaves your list; the catalogue may invite you again. ${NOT_FOUND}`,
        params: invitationParamsSchema,
        response: { 200: messageSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      await invitations.decline(user, request.params.invitationId);
      return { message: M.invitationDeclined };
    },
  );
});
