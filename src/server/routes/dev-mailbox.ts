import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { devMailboxResponseSchema } from '../../shared/schemas/dev-mail.js';
import { listLocalMail } from '../mail/transport.js';

/**
 * The development mailbox: the mails written to DATA_DIR/mail, newest first, codes included.
 * app.ts registers it only outside production and without SMTP (contract section 2).
 */
export async function devMailboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const dir = path.join(app.deps.config.dataDir, 'mail');
  app.get(
    '/mails',
    {
      schema: {
        tags: ['development'],
        summary: 'The local mailbox (development only)',
        response: { 200: devMailboxResponseSchema },
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
}
