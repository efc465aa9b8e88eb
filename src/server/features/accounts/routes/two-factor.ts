import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { A } from '../../../../shared/account-messages.js';
import { M } from '../../../../shared/messages.js';
import { messageSchema } from '../../../../shared/schemas/common.js';
import {
  recoveryCodesRequestSchema,
  recoveryCodesResponseSchema,
  totpConfirmSchema,
  totpDisableSchema,
  totpSetupSchema,
  twoFactorStatusSchema,
} from '../../../../shared/schemas/two-factor.js';
import { HttpError } from '../../../lib/http-error.js';
import { currentSession } from '../../../http/authenticate.js';
import { errorResponses, rateLimit } from '../../../http/route-options.js';
import { verifyPassword } from '../passwords.js';
import { securityMails } from '../security-mails.js';
import { twoFactorDeps } from '../two-factor/deps.js';
import {
  checkSecondFactor,
  readSecondFactorCode,
  type SecondFactorCheck,
} from '../two-factor/second-factor.js';
import { findUserById } from '../users.js';
import { named } from '../../../http/plugin-name.js';

/** A wrong code is a 400; a spent budget a 429 with Retry-After. */
function refuseUnlessRight(check: SecondFactorCheck, wrong: string) {
  if (check.ok) return;
  if (check.reason === 'budget') {
    throw new HttpError(429, M.tooManyCodeAttempts, { 'retry-after': String(check.retryAfter) });
  }
  throw new HttpError(400, wrong);
}

/** Two-factor sign-in with an authenticator app, from the signed-in user's profile. */
export const twoFactorRoutes = named('two-factor-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config, outbox, rateLimits } = app;
  const deps = twoFactorDeps(app);
  const { totp, recoveryCodes } = deps;
  const sensitive = rateLimit(rateLimits, rateLimits.sensitive);

  app.get(
    '/',
    {
      config: rateLimit(rateLimits, rateLimits.general),
      schema: {
        operationId: 'getTwoFactorStatus',
        tags: ['two-factor'],
        summary: 'Whether two-factor sign-in is on, and how many recovery codes are left',
        description: 'What the profile shows of two-factor sign-in.',
        response: { 200: twoFactorStatusSchema },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      return {
        totp: await totp.isOn(db, user.id),
        recoveryCodesLeft: await recoveryCodes.left(db, user.id),
      };
    },
  );

  app.post(
    '/totp',
    {
      config: sensitive,
      schema: {
        operationId: 'startTotpSetup',
        tags: ['two-factor'],
        summary: 'Start setting up an authenticator app',
        description:
          'A new secret (SHA-1, 6 digits, 30 s) as text and as an `otpauth://` URL for a QR code; two-factor sign-in is on only once `POST /api/auth/mfa/totp/confirm` takes a first code. Asking again replaces a secret not yet confirmed. 409 while it is on.',
        response: { 200: totpSetupSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const setup = await totp.begin(db, user.id, user.email, clock.now());
      if (setup === 'on') throw new HttpError(409, A.totpAlreadyOn);
      return setup;
    },
  );

  app.post(
    '/totp/confirm',
    {
      config: sensitive,
      schema: {
        operationId: 'confirmTotpSetup',
        tags: ['two-factor'],
        summary: 'Turn two-factor sign-in on with a first code',
        description:
          'The answer carries 10 recovery codes, shown this once: each signs in once when the authenticator is not at hand. 409 when no set-up waits for a code.',
        body: totpConfirmSchema,
        response: { 200: recoveryCodesResponseSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const now = clock.now();
      const result = await db.transaction().execute(async (trx) => {
        const check = await totp.check(trx, user.id, request.body.code, now, 'pending');
        if (check !== 'ok') return check;
        await totp.confirm(trx, user.id, now);
        const codes = await recoveryCodes.issue(trx, user.id, now);
        await outbox.enqueue(trx, securityMails.totpOn(config.publicUrl, user.email, user.name));
        return codes;
      });
      if (result === 'absent') throw new HttpError(409, A.totpNotStarted);
      if (result === 'wrong') throw new HttpError(400, A.totpCodeWrong);
      outbox.wake();
      return { message: A.totpOn, recoveryCodes: result };
    },
  );

  app.delete(
    '/totp',
    {
      config: sensitive,
      schema: {
        operationId: 'turnTotpOff',
        tags: ['two-factor'],
        summary: 'Turn two-factor sign-in off',
        description:
          'Needs the password and a current code from the authenticator app or an unused recovery code. The recovery codes go too. Wrong codes count against the same daily budget as at login (429).',
        body: totpDisableSchema,
        response: { 200: messageSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const { password, code } = request.body;
      const stored = await findUserById(db, user.id);
      if (!stored || !(await verifyPassword(stored.password_hash, password))) {
        throw new HttpError(400, A.passwordWrong);
      }
      if (!(await totp.isOn(db, user.id))) throw new HttpError(409, A.totpNotOn);
      const now = clock.now();
      const check = await db.transaction().execute(async (trx) => {
        const result = await checkSecondFactor(trx, deps, user.id, readSecondFactorCode(code), now);
        if (!result.ok) return result;
        await totp.remove(trx, user.id);
        await recoveryCodes.removeAll(trx, user.id);
        await outbox.enqueue(trx, securityMails.totpOff(config.publicUrl, user.email, user.name));
        return result;
      });
      refuseUnlessRight(check, A.secondFactorCodeWrong);
      outbox.wake();
      return { message: A.totpOff };
    },
  );

  app.post(
    '/recovery-codes',
    {
      config: sensitive,
      schema: {
        operationId: 'renewRecoveryCodes',
        tags: ['two-factor'],
        summary: 'Replace the recovery codes',
        description:
          'With a current code from the authenticator app: 10 new codes, shown this once; the earlier ones stop working.',
        body: recoveryCodesRequestSchema,
        response: { 200: recoveryCodesResponseSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      if (!(await totp.isOn(db, user.id))) throw new HttpError(409, A.totpNotOn);
      const now = clock.now();
      const result = await db.transaction().execute(async (trx) => {
        const check = await checkSecondFactor(trx, deps, user.id, { totp: request.body.code }, now);
        return check.ok ? recoveryCodes.issue(trx, user.id, now) : check;
      });
      if (!Array.isArray(result)) refuseUnlessRight(result, A.totpCodeWrong);
      return { message: A.recoveryCodesMade, recoveryCodes: result as string[] };
    },
  );
});
