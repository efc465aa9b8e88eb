import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { M } from '../../../shared/messages.js';
import { devMailboxResponseSchema } from '../../../shared/schemas/dev-mail.js';
import { notFound } from '../../lib/http-error.js';
import { isLoopbackAddress } from '../../lib/loopback.js';
import { listLocalMail } from '../../infra/mail/local-mailbox-reader.js';
import { errorResponses } from '../../http/route-options.js';
import { named } from '../../http/plugin-name.js';

/** `localhost`, `127.0.0.1` or `[::1]`, with or without a port: what the developer's browser sends. */
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** Headers a reverse proxy adds: a relayed request only looks local because the proxy is. */
const RELAY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * Only the developer's own browser may read the mailbox: the codes in it take over any account.
 * The socket's address, never request.ip (which TRUST_PROXY takes from X-Forwarded-For), must be
 * loopback, and the Host a loopback name, so that a page whose DNS name was rebound to 127.0.0.1
 * (Host: its own name) cannot read it either.
 */
function isDevelopersBrowser(request: FastifyRequest): boolean {
  const host = request.headers.host ?? '';
  return (
    isLoopbackAddress(request.socket.remoteAddress) &&
    LOOPBACK_HOST.test(host) &&
    RELAY_HEADERS.every((name) => request.headers[name] === undefined)
  );
}

/**
 * The development mailbox: the mails written to DATA_DIR/mail, newest first, codes included.
 * app.ts registers it only outside production and without SMTP; anyone but
 * the developer's own browser gets the 404 of a route that does not exist.
 */
export const devMailboxRoutes = named('dev-mailbox-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const dir = path.join(app.config.dataDir, 'mail');
  app.addHook('onRequest', async (request) => {
    if (!isDevelopersBrowser(request)) throw notFound(M.notFound);
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
