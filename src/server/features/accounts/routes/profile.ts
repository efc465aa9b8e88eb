import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CODE_LENGTH } from '../../../../shared/constants.js';
import { M, T } from '../../../../shared/messages.js';
import {
  changePasswordSchema,
  codeFormSchema,
  profileSchema,
} from '../../../../shared/schemas/auth.js';
import { messageSchema } from '../../../../shared/schemas/common.js';
import { CodeChecks } from '../code-checks.js';
import { Codes, deleteCodes } from '../codes.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import { revokeUserSessions } from '../sessions.js';
import { findUserByEmail, findUserById, isUniqueViolation, updateUser } from '../users.js';
import { HttpError } from '../../../lib/http-error.js';
import { templates } from '../../../infra/mail/templates.js';
import { currentSession } from '../../../http/authenticate.js';
import { errorResponses, rateLimit } from '../../../http/route-options.js';
import { refuseUnlessOk } from './refuse.js';
import { named } from '../../../http/plugin-name.js';

export const profileRoutes = named('profile-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config, outbox, rateLimits } = app;
  const codes = new Codes(config.appSecret, clock);
  const codeChecks = new CodeChecks({ db, clock, codes, outbox, publicUrl: config.publicUrl });

  app.patch(
    '/',
    {
      config: rateLimit(rateLimits, rateLimits.sensitive),
      schema: {
        operationId: 'updateProfile',
        tags: ['profile'],
        summary: 'Change the name, or ask to change the e-mail',
        description: `The name changes at once. An e-mail used by another account gives 409 and changes nothing. A new e-mail is not the account's until proven: a ${CODE_LENGTH}-digit code is mailed to it (within the address's mail budget), the answer says so, and the account keeps its address until \`POST /api/auth/profile/confirm-email\` takes the code.`,
        body: profileSchema,
        response: { 200: messageSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const { name, email } = request.body;
      const moving = email !== user.email;
      await db.transaction().execute(async (trx) => {
        if (moving) {
          const other = await findUserByEmail(trx, email);
          if (other && other.id !== user.id) throw new HttpError(409, M.emailTaken);
          // A code sent for another address must not prove this one; asking again for the same
          // address keeps its code, which may still be on its way.
          const stored = await findUserById(trx, user.id);
          if (stored?.pending_email !== email) await deleteCodes(trx, user.id, 'email');
          await outbox.request(trx, email, 'email-code', user.id);
        }
        const changes = moving ? { name, pending_email: email } : { name };
        await updateUser(trx, user.id, changes, clock.now());
      });
      if (!moving) return { message: M.profileUpdated };
      outbox.wake();
      return { message: T.emailCodeSent(email, user.email) };
    },
  );

  app.post(
    '/confirm-email',
    {
      config: rateLimit(rateLimits, rateLimits.sensitive),
      schema: {
        operationId: 'confirmEmailChange',
        tags: ['profile'],
        summary: 'Change the e-mail with the code mailed to the new address',
        description:
          'A wrong or expired code is a 400 (5 wrong tries burn it; 100 a day per account, then 429). If another account has taken the address meanwhile, 409 and the change is dropped. Both addresses are told of the change.',
        body: codeFormSchema,
        response: { 200: messageSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      let check;
      try {
        check = await codeChecks.confirmEmailChange(user.id, request.body.token);
      } catch (error) {
        // Taken between the check and the write.
        if (isUniqueViolation(error)) throw new HttpError(409, M.emailTaken);
        throw error;
      }
      if (check.ok === 'taken') throw new HttpError(409, M.emailTaken);
      refuseUnlessOk(check);
      return { message: M.emailChanged };
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
          'Signs out every other session of the account; the token of this request stays valid.',
        body: changePasswordSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { user, sessionId } = currentSession(request);
      const { currentPassword, newPassword } = request.body;
      // The hash is read here, not with every request's session.
      const stored = await findUserById(db, user.id);
      if (!stored || !(await verifyPassword(stored.password_hash, currentPassword))) {
        throw new HttpError(400, M.currentPasswordWrong);
      }
      const passwordHash = await hashPassword(newPassword);
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, user.id, { password_hash: passwordHash }, clock.now());
        await revokeUserSessions(trx, user.id, sessionId);
        await outbox.enqueue(
          trx,
          templates.passwordChanged(config.publicUrl, user.email, user.name),
        );
      });
      outbox.wake();
      return { message: M.passwordChanged };
    },
  );
});
