import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { M } from '../../shared/messages.js';
import { rawErrorAnswer } from './client-errors.js';

/** Milliseconds a client is given before its connection is closed. */
export interface Timeouts {
  /** To send a whole request: headers, then body. */
  request: number;
  /** To send a multipart upload to /api/products (a 5 MB photo over a slow phone link). */
  upload: number;
  /** Before an idle keep-alive connection is closed. */
  keepAlive: number;
}

export const defaultTimeouts: Timeouts = {
  request: 60_000,
  upload: 120_000,
  // Longer than the 60 s idle timeout of common load balancers and proxies, so that the server
  // never closes a connection the proxy is about to reuse (the proxy would answer 502).
  keepAlive: 72_000,
};

const TIMEOUT_RESPONSE = rawErrorAnswer(408, M.requestTooSlow);

/** A 408 in the API's error shape unless an answer has begun on this connection; then it closes. */
function cutOff(socket: Socket, answerStarted: boolean) {
  if (socket.destroyed) return;
  if (!answerStarted && socket.writable) socket.write(TIMEOUT_RESPONSE);
  socket.destroy();
}

/**
 * Node's own limits, the backstop for what the hook below does not see: headers must arrive within
 * the request limit, and no request (counted from its first byte, whatever its route) may take
 * longer than the upload limit. Node checks them every `connectionsCheckingInterval` and answers
 * with a 408 in the API's shape (client-errors.ts).
 */
export function timeoutServerOptions(timeouts: Timeouts) {
  return {
    requestTimeout: timeouts.upload,
    keepAliveTimeout: timeouts.keepAlive,
    http: {
      headersTimeout: Math.min(timeouts.request, timeouts.upload),
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(timeouts.request / 4)),
    },
  };
}

/** Multipart to the products API: the only requests allowed the longer upload limit. */
const isUpload = (request: FastifyRequest) =>
  (request.method === 'POST' || request.method === 'PATCH') &&
  /^\/api\/products(?:[/?]|$)/.test(request.url) &&
  /^multipart\/form-data/i.test(request.headers['content-type'] ?? '');

/** HTTP/1.1: a request carries a body only when it says so with Transfer-Encoding or Content-Length. */
const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined ||
  (request.headers['content-length'] ?? '0') !== '0';

/**
 * Node has one request limit for the whole server, so uploads get it (see above) and every other
 * request is held to the shorter one here: a body that has not fully arrived within the request
 * limit of its headers is answered 408 and its connection closed. Once the answer is sent the
 * timer goes; a body still trickling in after that is Node's to cut.
 */
export function registerRequestTimeouts(app: FastifyInstance, timeouts: Timeouts) {
  const timers = new WeakMap<FastifyRequest, NodeJS.Timeout>();
  app.addHook('onRequest', (request, reply, done) => {
    // Node has held the headers to the request limit already: without a body there is nothing
    // left to arrive, and no timer to arm on every GET.
    if (!hasBody(request)) return done();
    const limit = isUpload(request) ? timeouts.upload : timeouts.request;
    const timer = setTimeout(() => {
      if (!request.raw.complete) cutOff(request.raw.socket, reply.raw.headersSent);
    }, limit);
    timer.unref();
    timers.set(request, timer);
    done();
  });
  const stop = (request: FastifyRequest, _reply: unknown, done: () => void) => {
    clearTimeout(timers.get(request));
    done();
  };
  app.addHook('onResponse', stop);
  app.addHook('onRequestAbort', (request, done) => stop(request, undefined, done));
}
