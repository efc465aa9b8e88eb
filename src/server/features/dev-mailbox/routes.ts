import path from 'node:path';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { M } from '../../../shared/messages.js';
import { devMailboxResponseSchema } from '../../../shared/schemas/dev-mail.js';
import { notFound } from '../../lib/http-error.js';
import { listLocalMail } from '../../infra/mail/local-mailbox-reader.js';
import { errorResponses } from '../../http/route-options.js';
import { named } from '../../http/plugin-name.js';
import { devMailboxAnswers } from './access.js';

/**
 * The development mailbox: the mails written to DATA_DIR/mail, newest first, codes included.
 * app.ts registers it only outside production and without SMTP; anyone but
 * the developer's own browser gets the 404 of a route that does not exist.
 */
export const devMailboxRoutes = named('dev-mailbox-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const dir = path.join(app.config.dataDir, 'mail');
  app.addHook('onRequest', async (request) => {
    if (!devMailboxAnswers(app.config, request)) throw notFound(M.notFound);
  });
  app.get(
    '/mails',
    {
      schema: {
        operationId: 'listDevMails',
        tags: ['development'],
        summary: 'The local mailbox (development only)',
        // Anyone but the developer's browser gets the 404 of a route that does not exist.
        response: { 200: devMailboxResponseSchema, ...errorResponses(404) },
      },
    },
    async () => ({
      mails: (await listLocalMail(dir)).map(({ id, to, from, subject, text, sentAt }) => ({
        id,
        to,
        from,
        subject,
        text,
        sentAt,
      })),
    }),
  );
});
