import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { M } from '../../shared/messages.js';
import { UNKNOWN_PATH_HEADERS } from './security-headers.js';

/** The headers of an error answer the HTTP layer writes itself: every answer's, and JSON's. */
function errorHeaders(body: string) {
  return {
    ...UNKNOWN_PATH_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  };
}

/**
 * An error answer written straight to a socket, where there is no request to reply to: the
 * headers every answer carries and the API's error shape, then the connection closes.
 */
export function rawErrorAnswer(status: number, message: string): string {
  const body = JSON.stringify({ message });
  const headers = { ...errorHeaders(body), connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** What Node's parser refused, as the status and message of our answer. */
function refusal(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, M.headersTooLarge];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, M.requestTooSlow];
  return [400, M.badHttp];
}

/**
 * Fastify's clientErrorHandler: a request Node refuses before it is one (an address and headers
 * over its 16 KB, bytes that are not HTTP, headers that never finish arriving) gets our answer
 * instead of Fastify's, which has neither the security headers nor the API's error shape.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = refusal(error.code);
  this.log.debug({ err: error }, `client error answered ${status}`);
  if (socket.writable) socket.write(rawErrorAnswer(status, message));
  socket.destroy();
}

/**
 * A request with an Expect header Node does not know (anything but 100-continue) is answered by
 * Node itself with a bare 417, unless the server listens for it: answered here in our shape.
 */
export function answerUnmetExpectations(app: FastifyInstance) {
  app.server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify({ message: M.expectationFailed });
    response.writeHead(417, errorHeaders(body)).end(body);
  });
}
