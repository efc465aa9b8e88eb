import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { A } from '../../../../shared/account-messages.js';
import { messageSchema } from '../../../../shared/schemas/common.js';
import {
  passkeyAddedSchema,
  passkeyListSchema,
  passkeyParamsSchema,
  passkeyRegistrationSchema,
  passkeyRenameSchema,
  registrationOptionsSchema,
} from '../../../../shared/schemas/passkeys.js';
import { passkeyRemoveSchema } from '../../../../shared/schemas/two-factor.js';
import { HttpError } from '../../../lib/http-error.js';
import { currentSession } from '../../../http/authenticate.js';
import { errorResponses, rateLimit } from '../../../http/route-options.js';
import { verifyPassword } from '../passwords.js';
import { securityMails } from '../security-mails.js';
import { twoFactorDeps } from '../two-factor/deps.js';
import { presentPasskey } from '../two-factor/passkeys.js';
import { findUserById } from '../users.js';
import { named } from '../../../http/plugin-name.js';

/** The signed-in user's passkeys: list, register, rename, remove. */
export const passkeyRoutes = named('passkey-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config, outbox, rateLimits } = app;
  const { passkeys } = twoFactorDeps(app);
  const general = rateLimit(rateLimits, rateLimits.general);
  const sensitive = rateLimit(rateLimits, rateLimits.sensitive);

  const ownPasskey = async (userId: string, passkeyId: string) => {
    const row = await db
      .selectFrom('passkeys')
      .selectAll()
      .where('id', '=', passkeyId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new HttpError(404, A.passkeyNotFound);
    return row;
  };

  app.get(
    '/',
    {
      config: general,
      schema: {
        operationId: 'listPasskeys',
        tags: ['passkeys'],
        summary: "The signed-in user's passkeys",
        description:
          'Each with its name, when it was added and last used, and whether it is synced between devices.',
        response: { 200: passkeyListSchema },
      },
    },
    async (request) => {
      const rows = await passkeys.list(db, currentSession(request).user.id);
      return { passkeys: rows.map(presentPasskey) };
    },
  );

  app.post(
    '/registration/options',
    {
      config: sensitive,
      schema: {
        operationId: 'passkeyRegistrationOptions',
        tags: ['passkeys'],
        summary: 'What a new passkey is made from',
        description:
          "Pass `options` to `navigator.credentials.create` (SimpleWebAuthn's `startRegistration`), then send the answer to `POST /api/auth/passkeys/registration` with the `challengeId` within 5 minutes. 409 when PUBLIC_URL names the server by an IP address, which browsers refuse for passkeys.",
        response: { 200: registrationOptionsSchema, ...errorResponses(409) },
      },
    },
    async (request) => passkeys.registrationOptions(db, currentSession(request).user, clock.now()),
  );

  app.post(
    '/registration',
    {
      config: sensitive,
      schema: {
        operationId: 'registerPasskey',
        tags: ['passkeys'],
        summary: 'Add a passkey',
        description:
          "The browser's answer to the registration options. The passkey can then log in without a password, and is a second step when two-factor sign-in is on. The owner is told by e-mail.",
        body: passkeyRegistrationSchema,
        response: { 201: passkeyAddedSchema, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const { user } = currentSession(request);
      const { challengeId, response, name } = request.body;
      const count = (await passkeys.list(db, user.id)).length;
      const row = await passkeys.register(
        db,
        user.id,
        challengeId,
        response as RegistrationResponseJSON,
        name ?? `Passkey ${count + 1}`,
        clock.now(),
      );
      await outbox.enqueue(
        db,
        securityMails.passkeyAdded(config.publicUrl, user.email, user.name, row.name),
      );
      outbox.wake();
      return reply.code(201).send({ message: A.passkeyAdded, passkey: presentPasskey(row) });
    },
  );

  app.patch(
    '/:passkeyId',
    {
      config: general,
      schema: {
        operationId: 'renamePasskey',
        tags: ['passkeys'],
        summary: 'Rename a passkey',
        description: "Another user's passkey is a 404.",
        params: passkeyParamsSchema,
        body: passkeyRenameSchema,
        response: { 200: passkeyAddedSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const row = await ownPasskey(user.id, request.params.passkeyId);
      const { name } = request.body;
      await db.updateTable('passkeys').set({ name }).where('id', '=', row.id).execute();
      return { message: A.passkeyRenamed, passkey: presentPasskey({ ...row, name }) };
    },
  );

  app.delete(
    '/:passkeyId',
    {
      config: sensitive,
      schema: {
        operationId: 'removePasskey',
        tags: ['passkeys'],
        summary: 'Remove a passkey',
        description: "Needs the password. Another user's passkey is a 404.",
        params: passkeyParamsSchema,
        body: passkeyRemoveSchema,
        response: { 200: messageSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const row = await ownPasskey(user.id, request.params.passkeyId);
      const stored = await findUserById(db, user.id);
      if (!stored || !(await verifyPassword(stored.password_hash, request.body.password))) {
        throw new HttpError(400, A.passwordWrong);
      }
      await db.deleteFrom('passkeys').where('id', '=', row.id).execute();
      await outbox.enqueue(
        db,
        securityMails.passkeyRemoved(config.publicUrl, stored.email, stored.name, row.name),
      );
      outbox.wake();
      return { message: A.passkeyRemoved };
    },
  );
});
