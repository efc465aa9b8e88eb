import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { A } from '../../../../shared/account-messages.js';
import { messageSchema } from '../../../../shared/schemas/common.js';
import {
  deviceSessionListSchema,
  SESSIONS_LISTED,
  sessionParamsSchema,
} from '../../../../shared/schemas/sessions.js';
import { HttpError } from '../../../lib/http-error.js';
import { currentSession } from '../../../http/authenticate.js';
import { errorResponses, rateLimit } from '../../../http/route-options.js';
import { endDeviceSession, listDeviceSessions } from '../device-sessions.js';
import { revokeUserSessions } from '../sessions.js';
import { named } from '../../../http/plugin-name.js';

/**
 * Where the account is signed in (`/api/auth/sessions`): the list, ending one, ending all others.
 * An ended session's next request is refused on every instance within a second, and its live
 * streams close (the session lookup and the live hub read the database again once it changes).
 */
export const deviceSessionRoutes = named('device-session-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, rateLimits } = app;
  const general = rateLimit(rateLimits, rateLimits.general);

  app.get(
    '/',
    {
      config: general,
      schema: {
        operationId: 'listSessions',
        tags: ['sessions'],
        summary: 'Where the account is signed in',
        description: `Each session: its device (from the browser's User-Agent), roughly where it was last used from (the country of its address's range, "Local network" or "This computer"), when it began and was last used (recorded every few minutes), and \`current\` for the one asking. The ${SESSIONS_LISTED} most recently used, newest first.`,
        response: { 200: deviceSessionListSchema },
      },
    },
    async (request) => {
      const { user, sessionId } = currentSession(request);
      return { sessions: await listDeviceSessions(db, user.id, sessionId, clock.now()) };
    },
  );

  app.delete(
    '/:sessionId',
    {
      config: general,
      schema: {
        operationId: 'endSession',
        tags: ['sessions'],
        summary: 'End one session',
        description:
          'Its token stops working on every instance within a second, and its live streams close. Ending the current session is logging out. A session of another account is a 404.',
        params: sessionParamsSchema,
        response: { 200: messageSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      if (!(await endDeviceSession(db, user.id, request.params.sessionId))) {
        throw new HttpError(404, A.sessionNotFound);
      }
      return { message: A.sessionEnded };
    },
  );

  app.post(
    '/revoke-others',
    {
      config: general,
      schema: {
        operationId: 'endOtherSessions',
        tags: ['sessions'],
        summary: 'End every session but this one',
        description:
          'Takes no body. The other tokens stop working on every instance within a second, and their live streams close.',
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { user, sessionId } = currentSession(request);
      await revokeUserSessions(db, user.id, sessionId);
      return { message: A.otherSessionsEnded };
    },
  );
});
