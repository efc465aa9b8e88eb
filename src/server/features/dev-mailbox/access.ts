import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { isLoopbackAddress } from '../../lib/loopback.js';

/** `localhost`, `127.0.0.1` or `[::1]`, with or without a port: what the developer's browser sends. */
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** Headers a reverse proxy adds: a relayed request only looks local because the proxy is. */
const RELAY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/** The server keeps a local mailbox: outside production, while mail is not sent over SMTP. */
export const keepsDevMailbox = (config: Pick<Config, 'env' | 'smtpUrl'>) =>
  config.env !== 'production' && !config.smtpUrl;

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
 * Whether the mailbox, its API and its page, exists for this request: the one rule both follow.
 * Anyone else gets the 404 of a path that does not exist, and pages that do not mention it.
 */
export const devMailboxAnswers = (config: Config, request: FastifyRequest): boolean =>
  keepsDevMailbox(config) && isDevelopersBrowser(request);
