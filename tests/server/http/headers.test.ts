import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLACEHOLDER_NAME } from '../../../src/server/infra/images/placeholder.js';
import { M } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';

const SECRET = 'production-secret-that-is-at-least-32-characters';

/** A built client as Vite leaves it: index.html and a hashed asset. */
async function fakeClient(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stockroom-client-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>',
  );
  await writeFile(path.join(dir, 'assets', 'index-abc.js'), 'console.log("app")');
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('headers of the app and the API', async () => {
  const server = await build({ clientDir: await fakeClient() });
  const user = await signIn(server);
  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers });

  it.each(['/', '/auth/login', '/products/123/edit', '/index.html'])(
    'the app’s HTML at %s carries the Content-Security-Policy',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      const all = [...csp.values()].flat();
      expect(all).not.toContain("'unsafe-inline'");
      expect(all).not.toContain("'unsafe-eval'");
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    },
  );

  it.each([
    ['POST', '/api/auth/login', 'a token'],
    ['GET', '/api/auth/user', 'the user'],
    ['GET', '/api/products', 'the catalogue'],
    ['GET', '/api/products/00000000-0000-4000-8000-000000000000', 'a 404'],
    ['GET', '/api/nope', 'an unknown path'],
  ])('%s %s (%s) is never stored by a cache', async (method, url) => {
    const res = await server.app.inject({
      method: method as 'GET' | 'POST',
      url,
      headers: user.headers,
      ...(method === 'POST' ? { payload: { email: user.email, password: user.password } } : {}),
    });
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('a 401 is not stored either', async () => {
    const res = await get('/api/auth/user');
    expect(res.statusCode).toBe(401);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('images keep their long cache and may be shown by a frontend on another origin', async () => {
    const res = await get(`/api/images/${PLACEHOLDER_NAME}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('health answers carry no user data and no no-store', async () => {
    const res = await get('/api/health');
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('no HSTS over plain HTTP, nor when an untrusted client claims HTTPS', async () => {
    expect((await get('/')).headers['strict-transport-security']).toBeUndefined();
    const claimed = await get('/api/health', { 'x-forwarded-proto': 'https' });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });

  it('the API docs are served outside production', async () => {
    expect((await get('/api/openapi.json')).statusCode).toBe(200);
    expect((await get('/api/docs')).statusCode).toBeLessThan(400);
  });
});

describe('HSTS behind a trusted proxy', async () => {
  const server = await build({ env: { TRUST_PROXY: '10.0.0.0/8' } });
  const health = (remoteAddress: string, proto?: string) =>
    server.app.inject({
      method: 'GET',
      url: '/api/health',
      remoteAddress,
      headers: proto ? { 'x-forwarded-proto': proto } : {},
    });

  it('is sent when the trusted proxy says the request came over HTTPS', async () => {
    const res = await health('10.1.1.1', 'https');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('is not sent for HTTP through the proxy, nor when a client outside the list claims HTTPS', async () => {
    expect((await health('10.1.1.1', 'http')).headers['strict-transport-security']).toBeUndefined();
    expect((await health('10.1.1.1')).headers['strict-transport-security']).toBeUndefined();
    expect(
      (await health('203.0.113.5', 'https')).headers['strict-transport-security'],
    ).toBeUndefined();
  });
});

describe('API docs in production', async () => {
  const off = await build({ env: { NODE_ENV: 'production', APP_SECRET: SECRET } });
  const on = await build({
    env: {
      NODE_ENV: 'production',
      APP_SECRET: SECRET,
      API_DOCS: 'true',
      PUBLIC_URL: 'https://shop.example.net/stock',
    },
  });

  it('are a 404 unless API_DOCS=true', async () => {
    for (const url of ['/api/openapi.json', '/api/docs', '/api/docs/static/index.html']) {
      const res = await off.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: M.notFound });
    }
  });

  it('are served with API_DOCS=true', async () => {
    const doc = await on.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toMatch(/^3\./);
    expect((await on.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('name PUBLIC_URL as the server, and leave out what production does not serve', async () => {
    const doc = (await on.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.servers).toEqual([
      expect.objectContaining({ url: 'https://shop.example.net/stock', 'x-internal': false }),
    ]);
    expect(doc.servers[0].description).toMatch(/production/);
    expect(Object.keys(doc.paths)).not.toContain('/api/dev/mails');
  });
});
