import type { FastifyRequest } from 'fastify';

/**
 * `reset-password/<code>` with whatever follows it in the path, however the name is cased or
 * percent-encoded: the router may still match it, and a code in a log store is a password reset
 * for whoever reads the logs.
 */
const RESET_CODE = /(reset(?:-|%2d)password)(?:\/|%2f)[^?#]*/gi;

export const redactUrl = (url: string) => url.replace(RESET_CODE, '$1/[redacted]');

/** Fastify's request log entry, with the URL redacted. */
export const serializeRequest = (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.url),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});
