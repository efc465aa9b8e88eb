import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CODE_LENGTH } from '../../../../shared/constants.js';
import { M } from '../../../../shared/messages.js';
import {
  codeBodySchema,
  emailOnlySchema,
  loginResponseSchema,
  loginSchema,
  resetPasswordParamsSchema,
  resetPasswordSchema,
  signupSchema,
  userResponseSchema,
} from '../../../../shared/schemas/auth.js';
import { messageSchema } from '../../../../shared/schemas/common.js';
import { A } from '../../../../shared/account-messages.js';
import { CodeChecks } from '../code-checks.js';
import { requestCode } from '../code-requests.js';
import { Codes } from '../codes.js';
import { logIn } from '../login.js';
import { twoFactorDeps } from '../two-factor/deps.js';
import { deviceOf, revokeSession } from '../sessions.js';
import { signUp } from '../signup.js';
import { HttpError } from '../../../lib/http-error.js';
import { currentSession } from '../../../http/authenticate.js';
import { errorResponses, rateLimit } from '../../../http/route-options.js';
import { refuseUnlessOk } from './refuse.js';
import { named } from '../../../http/plugin-name.js';

/** Sign-up, confirmation, login and password reset: the account routes that need no token. */
export const signInRoutes = named('sign-in-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config, outbox, rateLimits } = app;
  const codes = new Codes(config.appSecret, clock);
  const sensitive = rateLimit(rateLimits, rateLimits.sensitive);
  const mailFlows = { db, clock, outbox };
  const loginDeps = { ...mailFlows, twoFactor: twoFactorDeps(app) };

  const codeChecks = new CodeChecks({ db, clock, codes, outbox, publicUrl: config.publicUrl });

  app.post(
    '/signup',
    {
      config: sensitive,
      schema: {
        operationId: 'signUp',
        tags: ['auth'],
        summary: `Create an account; a ${CODE_LENGTH}-digit code is e-mailed to confirm it`,
        description:
          'Answers the same whether or not the e-mail is registered. An existing account is not changed: it gets an e-mail saying so, or a new code while unconfirmed. Mail to an address is limited to one a minute and five an hour.',
        body: signupSchema,
        response: { 201: messageSchema },
      },
    },
    async (request, reply) => {
      const { name, email, password } = request.body;
      await signUp(mailFlows, { name, email, password });
      return reply.code(201).send({ message: M.signupDone });
    },
  );

  app.post(
    '/confirm-account',
    {
      config: sensitive,
      schema: {
        operationId: 'confirmAccount',
        tags: ['auth'],
        summary: 'Confirm an account with the e-mailed code',
        description: 'Send `email` with the code: without it, attempts are budgeted globally.',
        body: codeBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { token, email } = request.body;
      refuseUnlessOk(await codeChecks.confirmAccount(token, email));
      return { message: M.accountConfirmed };
    },
  );

  app.post(
    '/resend-confirmation',
    {
      config: sensitive,
      schema: {
        operationId: 'resendConfirmation',
        tags: ['auth'],
        summary: 'Send a new confirmation code',
        description:
          'Answers the same for unknown, unconfirmed and confirmed e-mails. Codes to an address are limited to one a minute and five an hour.',
        body: emailOnlySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await requestCode(mailFlows, request.body.email, 'confirm');
      return { message: M.resendDone };
    },
  );

  app.post(
    '/login',
    {
      config: sensitive,
      schema: {
        operationId: 'logIn',
        tags: ['auth'],
        summary: 'Log in; returns a bearer token valid for 7 days',
        description:
          'A wrong e-mail or password is one 400, answered in the same time whether or not the e-mail exists. The right password of an unconfirmed account is a 403, and a new code is sent. An account with two-factor sign-in gets no token yet: `{message, mfa: {challengeId, methods}}`, to finish with `POST /api/auth/login/mfa` within 5 minutes.',
        body: loginSchema,
        response: {
          200: loginResponseSchema,
          ...errorResponses(403),
        },
      },
    },
    async (request) => {
      const result = await logIn(
        loginDeps,
        request.body.email,
        request.body.password,
        deviceOf(request),
      );
      if (result.ok === true) return { message: M.loginDone, token: result.token };
      if (result.ok === 'second-step') {
        const { challengeId, methods } = result;
        return { message: A.secondStepNeeded, mfa: { challengeId, methods } };
      }
      if (result.reason === 'unconfirmed') throw new HttpError(403, M.notConfirmed);
      throw new HttpError(400, M.badCredentials);
    },
  );

  app.post(
    '/forgot-password',
    {
      config: sensitive,
      schema: {
        operationId: 'forgotPassword',
        tags: ['auth'],
        summary: 'E-mail a code to reset the password',
        description:
          'Answers the same for unknown, unconfirmed and confirmed e-mails. Codes to an address are limited to one a minute and five an hour.',
        body: emailOnlySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await requestCode(mailFlows, request.body.email, 'reset');
      return { message: M.forgotDone };
    },
  );

  app.post(
    '/validate-password-token',
    {
      config: sensitive,
      schema: {
        operationId: 'validatePasswordToken',
        tags: ['auth'],
        summary: 'Check a password-reset code without using it',
        description: 'Send `email` with the code: without it, attempts are budgeted globally.',
        body: codeBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { token, email } = request.body;
      refuseUnlessOk(await codeChecks.validateResetCode(token, email));
      return { message: M.codeValid };
    },
  );

  app.post(
    '/reset-password/:token',
    {
      config: sensitive,
      schema: {
        operationId: 'resetPassword',
        tags: ['auth'],
        summary: 'Set a new password with a reset code; signs out every session',
        description:
          'The code is used up. An unconfirmed account is confirmed by it. Send `email` with the code: without it, attempts are budgeted globally.',
        params: resetPasswordParamsSchema,
        body: resetPasswordSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { password, email } = request.body;
      refuseUnlessOk(await codeChecks.resetPassword(request.params.token, password, email));
      return { message: M.passwordReset };
    },
  );
});

/** The signed-in user's session: who it is, and logging out (registered in the protected scope). */
export const sessionRoutes = named('session-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, rateLimits } = app;
  const general = rateLimit(rateLimits, rateLimits.general);

  app.get(
    '/user',
    {
      config: general,
      schema: {
        operationId: 'getCurrentUser',
        tags: ['auth'],
        summary: 'The signed-in user',
        description: 'Its id, name and e-mail. Preferences are at `/api/auth/preferences`.',
        response: { 200: userResponseSchema },
      },
    },
    async (request) => ({ user: currentSession(request).user }),
  );

  app.post(
    '/logout',
    {
      config: general,
      schema: {
        operationId: 'logOut',
        tags: ['auth'],
        summary: 'Revoke the token of this request',
        description: 'Takes no body; other sessions of the account stay signed in.',
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await revokeSession(db, currentSession(request).sessionId);
      return { message: M.loggedOut };
    },
  );
});
