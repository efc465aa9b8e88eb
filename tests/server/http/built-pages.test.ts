import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_MAILBOX_META } from '../../../src/shared/constants.js';
import { M } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';

const HYDRATION = 'window.__reactRouterContext = {"ssr":false};';
const STYLESHEET = 'body{margin:0}';
const page = (name: string, script = '') =>
  `<!doctype html><html><head><title>${name}</title></head><body>${script}</body></html>`;

/** A client as React Router's build leaves it: prerendered paths, the fallback, an asset. */
async function builtClient(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stockroom-client-'));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  await mkdir(path.join(dir, 'auth', 'login'), { recursive: true });
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), page('list'));
  await writeFile(
    path.join(dir, 'auth', 'login', 'index.html'),
    page(
      'login',
      `<style>${STYLESHEET}</style><script>${HYDRATION}</script><script type="module" src="/assets/a.js"></script>`,
    ),
  );
  // A path with a parameter, prerendered as its pattern.
  await mkdir(path.join(dir, 'details', 'product', ':productId'), { recursive: true });
  await writeFile(
    path.join(dir, 'details', 'product', ':productId', 'index.html'),
    page('product'),
  );
  await writeFile(path.join(dir, '__spa-fallback.html'), page('fallback'));
  await writeFile(path.join(dir, 'assets', 'a.js'), 'export {};');
  return dir;
}

const titleOf = (html: string) => /<title>(.*)<\/title>/.exec(html)?.[1];

describe('the page sent for each path of the app', async () => {
  const clientDir = await builtClient();
  const server = await build({ clientDir });

  it.each([
    ['/', 'list'],
    ['/auth/login', 'login'],
    ['/auth/login/', 'login'],
    // What a query changes is not in a prerendered page: the app renders it in full.
    ['/auth/login?email=a%40example.com', 'fallback'],
    ['/?q=lamp', 'fallback'],
    ['/details/product/0f6e8a0c-0000-4000-8000-000000000000', 'product'],
    ['/details/product/0f6e8a0c-0000-4000-8000-000000000000/', 'product'],
    ['/details/product/0f6e8a0c?tab=history', 'fallback'],
    ['/details/product', 'fallback'],
    ['/details/product/a/b', 'fallback'],
    ['/details/other/a', 'fallback'],
    ['/profile', 'fallback'],
    ['/auth/login/index.html', 'fallback'],
  ])('%s gets the %s page, never cached', async (url, expected) => {
    const res = await server.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(titleOf(res.body)).toBe(expected);
  });

  it("allows exactly the page's inline scripts, by hash, and nothing inline else", async () => {
    const hash = createHash('sha256').update(HYDRATION).digest('base64');
    const login = await server.app.inject({ url: '/auth/login' });
    const scriptSrc = /script-src ([^;]*)/.exec(String(login.headers['content-security-policy']));
    expect(scriptSrc?.[1]).toBe(`'self' 'wasm-unsafe-eval' 'sha256-${hash}'`);
    const list = await server.app.inject({ url: '/' });
    expect(list.headers['content-security-policy']).toContain(
      "script-src 'self' 'wasm-unsafe-eval';",
    );
    expect(String(login.headers['content-security-policy'])).not.toContain('unsafe-inline');
  });

  it("allows exactly the page's inline stylesheet, by hash", async () => {
    const hash = createHash('sha256').update(STYLESHEET).digest('base64');
    const login = await server.app.inject({ url: '/auth/login' });
    const styleSrc = /style-src ([^;]*)/.exec(String(login.headers['content-security-policy']));
    expect(styleSrc?.[1]).toBe(`'self' 'sha256-${hash}'`);
    const list = await server.app.inject({ url: '/' });
    expect(list.headers['content-security-policy']).toContain("style-src 'self';");
  });

  it('says in every page the developer’s browser gets that the server keeps a local mailbox', async () => {
    for (const url of ['/', '/auth/login', '/profile']) {
      const res = await server.app.inject({ url });
      expect(res.body).toContain(`<meta name="${DEV_MAILBOX_META}" content=""></head>`);
    }
  });

  it('answers an unknown API path with a JSON 404, not a page', async () => {
    const res = await server.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it.each([
    '/api/auth/user%00',
    '/api/products%00',
    '/api/%00',
    '/api/nope/..',
    '/api/products.',
    '/api/products..',
    '/api/a\\b',
    '/api/%5c',
    '/api//nope',
    '/api/./nope',
    '/api/assets/a.js',
    '/api/auth/login/index.html',
  ])('answers the unknown API path %s with the same JSON 404', async (url) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await server.app.inject({ method, url });
      expect(res.statusCode, method).toBe(404);
      expect(res.headers['content-type'], method).toMatch(/^application\/json/);
      if (method === 'GET') expect(res.json()).toEqual({ message: M.notFound });
    }
  });

  it('answers API paths with dot segments the same over a socket, which keeps them as sent', async () => {
    // inject() resolves `%2e%2e` as a URL parser does; a client's raw request line does not.
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    for (const url of [
      '/api/%2e%2e/x',
      '/api/%2e%2e/auth/login',
      '/api/../auth/login',
      '/api/%2E./',
    ]) {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: url }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
          .on('error', reject)
          .end();
      });
      expect(answer.status, url).toBe(404);
      expect(JSON.parse(answer.body), url).toEqual({ message: M.notFound });
    }
  });
});

describe('the pages of a server that sends its mail over SMTP', async () => {
  const server = await build({
    clientDir: await builtClient(),
    env: { SMTP_URL: 'smtp://127.0.0.1:2525' },
  });

  it('carry no mailbox tag', async () => {
    for (const url of ['/', '/auth/login', '/profile']) {
      const res = await server.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(DEV_MAILBOX_META);
    }
  });
});
