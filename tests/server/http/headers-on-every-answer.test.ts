import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { EVERY_ANSWER } from '../support/security-headers.js';
import { M } from '../../../src/shared/messages.js';

/**
 * Sends a request over a socket as written (a malformed URL included, which fetch would fix up),
 * and returns its status and headers.
 */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('security headers on every answer', async () => {
  const server = await build();
  const user = await signIn(server);
  const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
  const json = { 'content-type': 'application/json' };

  it.each([
    ['the router refusing a malformed URL', 'GET', '/api/%', {}, undefined, 400],
    ['the router refusing a malformed URL outside the API', 'GET', '/%zz', {}, undefined, 400],
    ['an unknown API path', 'GET', '/api/nope', {}, undefined, 404],
    ['an unknown method on a known path', 'PUT', '/api/auth/user', {}, undefined, 404],
    ['malformed JSON', 'POST', '/api/auth/login', json, '{"email":', 400],
    ['an empty JSON body', 'POST', '/api/auth/login', json, '', 400],
    [
      'a type the API does not take',
      'POST',
      '/api/auth/login',
      { 'content-type': 'text/xml' },
      '<a/>',
      415,
    ],
    ['a JSON body over the limit', 'POST', '/api/auth/login', json, `"${'x'.repeat(70_000)}"`, 413],
    [
      'a multipart body without a boundary',
      'POST',
      '/api/products',
      { 'content-type': 'multipart/form-data' },
      'x',
      400,
    ],
  ])('%s (%s %s)', async (_, method, path, headers, body, status) => {
    const auth = path === '/api/products' ? user.headers : {};
    const res = await raw(base, method, path, { ...auth, ...headers }, body);
    expect(res.status).toBe(status);
    expect(res.headers).toMatchObject(EVERY_ANSWER);
    if (path.startsWith('/api')) expect(res.headers['cache-control']).toBe('no-store');
    server.takeUndocumentedAnswers();
  });

  /** Bytes written to a socket as they are; the raw answer, until the server closes. */
  const rawBytes = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      const socket = connect(Number(port), hostname, () => socket.end(bytes));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });

  /** The status, lower-case headers and body of a raw HTTP/1.1 answer. */
  const parse = (answer: string) => {
    const [head, body] = answer.split('\r\n\r\n', 2) as [string, string];
    const [status, ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    return { status: Number(status!.split(' ')[1]), headers, body: JSON.parse(body) as unknown };
  };

  it.each([
    [
      "an address and headers over Node's 16 KB",
      `GET /api/products?q=${'x'.repeat(17_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      431,
      M.headersTooLarge,
    ],
    ['bytes that are not HTTP', 'NOT HTTP AT ALL\r\n\r\n', 400, M.badHttp],
    [
      'an Expect header Node does not know',
      'GET /api/health HTTP/1.1\r\nHost: localhost\r\nExpect: the-unexpected\r\nConnection: close\r\n\r\n',
      417,
      M.expectationFailed,
    ],
  ])('the HTTP layer refusing %s', async (_, bytes, status, message) => {
    const answer = parse(await rawBytes(bytes));
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatchObject({ ...EVERY_ANSWER, 'cache-control': 'no-store' });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.body).toEqual({ message });
  });
});
