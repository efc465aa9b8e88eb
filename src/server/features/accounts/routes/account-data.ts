import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { A } from '../../../../shared/account-messages.js';
import { M } from '../../../../shared/messages.js';
import { deleteAccountSchema } from '../../../../shared/schemas/account-data.js';
import { messageSchema } from '../../../../shared/schemas/common.js';
import { HttpError } from '../../../lib/http-error.js';
import { currentSession } from '../../../http/authenticate.js';
import { COSTLY_WORK_NOTE, costlyTurn } from '../../../http/costly-work.js';
import { errorResponses, rateLimit } from '../../../http/route-options.js';
import { accountExport } from '../account-export.js';
import { deleteAccount } from '../account-deletion.js';
import { securityMails } from '../security-mails.js';
import { twoFactorDeps } from '../two-factor/deps.js';
import { logCutShort, sendFile } from '../../../http/file-replies.js';
import { named } from '../../../http/plugin-name.js';

/** Taking the account's data out, and deleting the account (`/api/auth/export`, `/api/auth/user`). */
export const accountDataRoutes = named('account-data-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, outbox, rateLimits } = app;
  const sensitive = rateLimit(rateLimits, rateLimits.sensitive);

  app.get(
    '/export',
    {
      config: sensitive,
      preHandler: costlyTurn,
      schema: {
        operationId: 'exportAccount',
        tags: ['profile'],
        summary: 'Everything of the account as one ZIP file',
        description: `\`account.json\` (the profile, sign-in methods without their secrets, sessions, the catalogues it belongs to), then for each catalogue \`catalogues/{id}/products.csv\` (the CSV export's columns, which import back), \`movements.csv\` and \`images/{productId}.webp\`. Streamed as it is read. ${COSTLY_WORK_NOTE}`,
        response: {
          200: {
            description: 'The ZIP file, as an attachment',
            content: { 'application/zip': { schema: z.unknown().describe('A ZIP archive') } },
          },
        },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = currentSession(request);
      const now = clock.now();
      const deps = { db, images: app.images, products: app.products };
      const zip = await accountExport(
        deps,
        user.id,
        sessionId,
        now,
        logCutShort(request, 'account export'),
      );
      if (!zip) throw new HttpError(401, M.unauthorized);
      const day = new Date(now).toISOString().slice(0, 10);
      return sendFile(reply, 'zip', `stockroom-${day}.zip`, zip);
    },
  );

  app.delete(
    '/user',
    {
      config: sensitive,
      schema: {
        operationId: 'deleteAccount',
        tags: ['profile'],
        summary: 'Delete the account',
        description:
          'Needs the password, and with two-factor sign-in on a current code or a recovery code (`code`). The personal catalogue with its products, pictures and history goes, every session ends, memberships end; entries in shared catalogues keep the name as text. While the account owns shared catalogues nothing is deleted: its 409 names them, to hand over or delete first. A mail confirms it.',
        body: deleteAccountSchema,
        response: { 200: messageSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const twoFactor = twoFactorDeps(app);
      const result = await deleteAccount(
        {
          db,
          dialect: app.database.dialect,
          twoFactor,
          deleteCatalogueProducts: app.products.deleteCatalogueProducts,
          enqueueMail: (trx, mail) => outbox.enqueue(trx, mail),
          goodbyeMail: securityMails.accountDeleted,
        },
        user.id,
        request.body,
        clock.now(),
      );
      if (result.ok) {
        outbox.wake();
        // The files go once nothing refers to them any more, like a deleted catalogue's.
        await app.products.removeImages(result.imageKeys);
        return { message: A.accountDeleted };
      }
      switch (result.reason) {
        case 'password':
          throw new HttpError(400, A.passwordWrong);
        case 'code-required':
          throw new HttpError(400, A.codeRequired);
        case 'second-factor':
          if (result.check.reason === 'budget') {
            throw new HttpError(429, M.tooManyCodeAttempts, {
              'retry-after': String(result.check.retryAfter),
            });
          }
          throw new HttpError(400, A.secondFactorCodeWrong);
        case 'owns-shared':
          throw new HttpError(409, A.ownsSharedCatalogues(result.catalogues));
      }
    },
  );
});
