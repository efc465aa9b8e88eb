import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { M } from '../../../shared/messages.js';
import {
  changePasswordSchema,
  profileSchema,
  tokenResponseSchema,
} from '../../../shared/schemas/auth.js';
import { messageSchema } from '../../../shared/schemas/common.js';
import { deleteCodes } from '../../accounts/codes.js';
import { hashPassword, verifyPassword } from '../../accounts/passwords.js';
import { createSession, revokeUserSessions } from '../../accounts/sessions.js';
import {
  findUserByEmail,
  findUserById,
  isUniqueViolation,
  updateUser,
} from '../../accounts/users.js';
import { HttpError } from '../../lib/http-error.js';
import { templates } from '../../mail/templates.js';
import { currentSession } from '../../plugins/authenticate.js';
import { errorResponses, rateLimit } from '../shared.js';

export async function profileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config, outbox, rateLimits } = app;

  app.patch(
    '/',
    {
      config: rateLimit(rateLimits, rateLimits.general),
      schema: {
        operationId: 'updateProfile',
        tags: ['profile'],
        summary: 'Change name and e-mail',
        description:
          'An e-mail used by another account gives 409; the old address is told of a change.',
        body: profileSchema,
        response: { 200: messageSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const { name, email } = request.body;
      const emailTaken = new HttpError(409, M.emailTaken);
      try {
        await db.transaction().execute(async (trx) => {
          if (email !== user.email) {
            const other = await findUserByEmail(trx, email);
            if (other && other.id !== user.id) throw emailTaken;
            // Live codes went to the old address; they must not keep working for the new one.
            await deleteCodes(trx, user.id);
            await outbox.enqueue(
              trx,
              templates.emailChanged(config.publicUrl, user.email, name, email),
            );
          }
          await updateUser(trx, user.id, { name, email }, clock.now());
        });
      } catch (error) {
        throw isUniqueViolation(error) ? emailTaken : error;
      }
      outbox.wake();
      return { message: M.profileUpdated };
    },
  );

  app.post(
    '/change-password',
    {
      config: rateLimit(rateLimits, rateLimits.sensitive),
      schema: {
        operationId: 'changePassword',
        tags: ['profile'],
        summary: 'Change the password',
        description:
          'Signs out every other session and returns a fresh token for this one; the token of this request stops working.',
        body: changePasswordSchema,
        response: { 200: tokenResponseSchema },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const { currentPassword, newPassword } = request.body;
      // The hash is read here, not with every request's session.
      const stored = await findUserById(db, user.id);
      if (!stored || !(await verifyPassword(stored.password_hash, currentPassword))) {
        throw new HttpError(400, M.currentPasswordWrong);
      }
      const passwordHash = await hashPassword(newPassword);
      const token = await db.transaction().execute(async (trx) => {
        await updateUser(trx, user.id, { password_hash: passwordHash }, clock.now());
        await revokeUserSessions(trx, user.id);
        await outbox.enqueue(
          trx,
          templates.passwordChanged(config.publicUrl, user.email, user.name),
        );
        return createSession(trx, clock, user.id);
      });
      outbox.wake();
      return { message: M.passwordChanged, token };
    },
  );
}
