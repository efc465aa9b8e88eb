import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type HTTPMethods } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { protectedScope } from '../../../src/server/http/authenticate.js';
import { M } from '../../../src/shared/messages.js';
import { signIn } from '../support/accounts.js';
import { build } from '../support/build.js';

/** What may answer without a token: nothing else. */
const PUBLIC = [
  'GET /api/health',
  'GET /api/ready',
  'POST /api/auth/signup',
  'POST /api/auth/confirm-account',
  'POST /api/auth/resend-confirmation',
  'POST /api/auth/login',
  'POST /api/auth/login/mfa',
  'POST /api/auth/passkeys/login/options',
  'POST /api/auth/passkeys/login',
  'POST /api/auth/forgot-password',
  'POST /api/auth/validate-password-token',
  'POST /api/auth/reset-password/:token',
  'GET /api/images/:name',
  'GET /api/dev/mails',
  'GET /api/openapi.json',
  'OPTIONS *',
];
/**
 * Routes of plugins we do not write: the API docs' UI and the client's files (one route, and the
 * one that keeps it off /api).
 */
const PUBLIC_PREFIXES = ['GET /api/docs', 'GET /*', 'GET /api/*'];

/** A URL for a route pattern: any value will do for its parameters. */
const sample = (url: string) =>
  url
    .replace(/:id\b/, '00000000-0000-4000-8000-000000000000')
    .replace(/:\w+/g, 'x')
    .replace('*', 'anything');

/**
 * Every registered route, walked: each is either declared public (and on the list above), or
 * answers 401 to a request without a token. A route added without thought is protected.
 */
describe('protected by default', async () => {
  const clientDir = await mkdtemp(path.join(tmpdir(), 'stockroom-client-'));
  await mkdir(path.join(clientDir, 'assets'));
  await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>app</title>');
  await writeFile(path.join(clientDir, 'assets', 'app-0123.js'), 'export {};');
  afterAll(() => rm(clientDir, { recursive: true, force: true }));
  const server = await build({ clientDir });

  const routes = server.app.registeredRoutes.flatMap((route) =>
    [route.method]
      .flat()
      .filter((method) => method !== 'HEAD')
      // A collection's route is registered as '/api/products/'; it answers '/api/products' too.
      .map((method) => ({
        method: method as HTTPMethods,
        url: route.url!.replace(/(.)\/$/, '$1'),
        route,
      })),
  );

  it('finds the routes of every part of the app', () => {
    const names = routes.map(({ method, url }) => `${method} ${url}`);
    for (const expected of [...PUBLIC, 'GET /api/products', 'PATCH /api/auth/profile']) {
      expect(names).toContain(expected);
    }
    expect(names).toContain('GET /*');
  });

  it('declares public exactly the routes that need no token', () => {
    for (const { method, url, route } of routes) {
      const name = `${method} ${url}`;
      const listed = PUBLIC.includes(name) || PUBLIC_PREFIXES.some((p) => name.startsWith(p));
      expect(route.config?.public === true, name).toBe(listed);
    }
  });

  it('refuses every other route without a token, before anything else', async () => {
    const guarded = routes.filter(({ route }) => route.config?.public !== true);
    expect(guarded.length).toBeGreaterThan(8);
    for (const { method, url } of guarded) {
      const res = await server.app.inject({
        method,
        url: sample(url),
        ...(method === 'POST' || method === 'PATCH' ? { payload: {} } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json(), `${method} ${url}`).toEqual({ message: M.unauthorized });
    }
  });
});

/**
 * Protection comes from the scope a route is registered in: a route that declares nothing, added
 * to the protected scope, is refused without a valid token and answers with one.
 */
describe('a route added carelessly to the protected scope', async () => {
  const server = await build();
  const user = await signIn(server);
  const app = Fastify();
  app.decorate('sessions', server.app.sessions);
  await app.register(async (scope) => {
    protectedScope(scope);
    scope.get('/careless', async (request) => ({ email: request.session?.user.email }));
  });
  afterAll(() => app.close());

  it('is refused without a token, and with a made-up one', async () => {
    for (const headers of [{}, { authorization: 'Bearer made-up-token' }]) {
      const res = await app.inject({ method: 'GET', url: '/careless', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: M.unauthorized });
    }
  });

  it("answers a signed-in user's request", async () => {
    const res = await app.inject({ method: 'GET', url: '/careless', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: user.email });
  });
});
