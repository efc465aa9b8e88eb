import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { A } from '../../../../shared/account-messages.js';
import { M } from '../../../../shared/messages.js';
import { tokenResponseSchema } from '../../../../shared/schemas/auth.js';
import { optionalBody } from '../../../../shared/schemas/common.js';
import {
  authenticationOptionsRequestSchema,
  authenticationOptionsSchema,
  passkeySignInSchema,
} from '../../../../shared/schemas/passkeys.js';
import { loginMfaSchema } from '../../../../shared/schemas/two-factor.js';
import { HttpError } from '../../../lib/http-error.js';
import { errorResponses, rateLimit } from '../../../http/route-options.js';
import { deviceOf } from '../sessions.js';
import { challenges } from '../two-factor/challenges.js';
import { twoFactorDeps } from '../two-factor/deps.js';
import {
  finishSecondStep,
  signInWithPasskey,
  type SecondStepResult,
} from '../two-factor/sign-in.js';
import { named } from '../../../http/plugin-name.js';

const REFUSALS = {
  expired: A.signInExpired,
  'wrong-totp': A.totpCodeWrong,
  'wrong-recovery': A.recoveryCodeWrong,
  'passkey-refused': A.passkeyRefused,
} as const;

function tokenOrRefusal(result: SecondStepResult) {
  if (result.ok) return { message: M.loginDone, token: result.token };
  if (result.reason === 'budget') {
    throw new HttpError(429, M.tooManyCodeAttempts, { 'retry-after': String(result.retryAfter) });
  }
  throw new HttpError(400, REFUSALS[result.reason]);
}

/**
 * The second step of a sign-in, and signing in with a passkey alone: public routes, like login.
 * Registered beside the other sign-in routes under /api/auth.
 */
export const secondStepRoutes = named('second-step-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { rateLimits } = app;
  const deps = twoFactorDeps(app);
  const sensitive = rateLimit(rateLimits, rateLimits.sensitive);

  app.post(
    '/login/mfa',
    {
      config: sensitive,
      schema: {
        operationId: 'logInSecondStep',
        tags: ['auth'],
        summary: 'Finish a login with the second step; returns a bearer token',
        description:
          "For an account with two-factor sign-in, after `POST /api/auth/login` answered `mfa`. Send `challengeId` and one of `code` (the authenticator app's), `recoveryCode` (each works once) or `assertion` (a passkey's signature of the options from `POST /api/auth/passkeys/login/options`). A code is accepted once. 5 wrong tries end the login (log in again); 30 wrong codes a day per account, then 429 until the window moves.",
        body: loginMfaSchema,
        response: { 200: tokenResponseSchema },
      },
    },
    async (request) => {
      const { challengeId, code, recoveryCode, assertion } = request.body;
      const step =
        code !== undefined
          ? { totp: code }
          : recoveryCode !== undefined
            ? { recovery: recoveryCode }
            : { assertion: assertion! };
      return tokenOrRefusal(await finishSecondStep(deps, challengeId, step, deviceOf(request)));
    },
  );

  app.post(
    '/passkeys/login/options',
    {
      config: sensitive,
      schema: {
        operationId: 'passkeySignInOptions',
        tags: ['auth'],
        summary: 'What a passkey signs to log in',
        description:
          "Without a body (or without `challengeId`): options to log in with a passkey alone, any passkey kept on the device, which must check its owner. With the `challengeId` of a login waiting for its second step: options for that account's passkeys. Pass `options` to `navigator.credentials.get` (SimpleWebAuthn's `startAuthentication`), then send the answer with the `challengeId`.",
        body: optionalBody(authenticationOptionsRequestSchema),
        response: { 200: authenticationOptionsSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const now = app.clock.now();
      const secondStepId = request.body?.challengeId;
      if (secondStepId === undefined) {
        const { options, webauthnChallenge } = await deps.passkeys.authenticationOptions(
          app.db,
          undefined,
        );
        const id = await challenges.create(app.db, now, 'passkey-sign-in', null, webauthnChallenge);
        return { challengeId: id, options };
      }
      const challenge = await challenges.find(app.db, secondStepId, 'second-factor', now);
      if (!challenge) throw new HttpError(400, A.signInExpired);
      const { options, webauthnChallenge } = await deps.passkeys.authenticationOptions(
        app.db,
        challenge,
      );
      await challenges.setWebauthnChallenge(app.db, challenge.idHash, webauthnChallenge);
      return { challengeId: secondStepId, options };
    },
  );

  app.post(
    '/passkeys/login',
    {
      config: sensitive,
      schema: {
        operationId: 'passkeySignIn',
        tags: ['auth'],
        summary: 'Log in with a passkey alone; returns a bearer token',
        description:
          "The `challengeId` from `POST /api/auth/passkeys/login/options` (without a login waiting) and the passkey's answer. The passkey names the account; no password or second step is asked.",
        body: passkeySignInSchema,
        response: { 200: tokenResponseSchema },
      },
    },
    async (request) => {
      const { challengeId, assertion } = request.body;
      const token = await signInWithPasskey(deps, challengeId, assertion, deviceOf(request));
      if (!token) throw new HttpError(400, A.passkeyRefused);
      return { message: M.loginDone, token };
    },
  );
});
