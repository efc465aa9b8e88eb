import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_MAILBOX_META } from '../../../src/shared/constants.js';
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
