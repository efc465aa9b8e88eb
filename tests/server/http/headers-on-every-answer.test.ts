import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';

/** What every answer carries, whatever refused or answered the request. */
const EVERY_ANSWER = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

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
});
