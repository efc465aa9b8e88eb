import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_MAILBOX_META } from '../../../src/shared/constants.js';
import { rawRequest, type RawAnswer } from '../../support/raw-http.js';
import { build } from '../support/build.js';
import { png } from '../support/images.js';
import { createProduct } from '../support/products.js';
import { signIn } from '../support/accounts.js';

const script = `console.log(${JSON.stringify('stockroom '.repeat(400))});\n`;
const html = `<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body>${'<div id="root"></div>'.repeat(100)}</body></html>`;

/** A built client as `npm run build:client` leaves it: every file with its .br and .gz beside it. */
async function fakeClient(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stockroom-client-'));
  await mkdir(path.join(dir, 'assets'));
  const files = { 'index.html': html, 'assets/index-abc.js': script };
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    await writeFile(file, text);
    await writeFile(`${file}.br`, brotliCompressSync(text));
    await writeFile(`${file}.gz`, gzipSync(text));
  }
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Decodes a body by its Content-Encoding, as a browser would. */
function decode(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return gunzipSync(answer.body).toString();
  expect(encoding).toBeUndefined();
  return answer.body.toString();
}

describe('compressed answers over real HTTP', async () => {
  const server = await build({ clientDir: await fakeClient(), env: { API_DOCS: 'true' } });
  const user = await signIn(server);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;

  /** GET over loopback with node:http, which leaves the body encoded. */
  const get = (url: string, headers: Record<string, string> = {}) =>
    rawRequest({ host: '127.0.0.1', port, path: url, headers });

  it.each([
    ['br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
  ])('sends a static asset asked with Accept-Encoding: %s as %s', async (accept, expected) => {
    const res = await get('/assets/index-abc.js', { 'accept-encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(expected);
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body.length).toBeLessThan(script.length / 5);
    expect(decode(res)).toBe(script);
  });

  it('sends a static asset as is to a client that takes no compression', async () => {
    const res = await get('/assets/index-abc.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(script);
  });

  it.each(['/', '/products/123', '/index.html'])(
    'sends the app’s HTML at %s compressed, uncached and under the CSP',
    async (url) => {
      const res = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      // This server keeps a local mailbox (no SMTP_URL): its pages say so.
      expect(decode(res)).toBe(
        html.replace('</head>', `<meta name="${DEV_MAILBOX_META}" content=""></head>`),
      );
    },
  );

  it('sends a product list over 1 KB compressed, and the same JSON decoded', async () => {
    for (let i = 0; i < 12; i += 1) {
      server.clock.advance(1000);
      await createProduct(server, user, { name: `Lamp ${i}`, description: 'd'.repeat(100) });
    }
    const plain = await get('/api/products', user.headers);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await get('/api/products', { ...user.headers, 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body.length).toBeLessThan(plain.body.length / 2);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(JSON.parse(decode(res))).toEqual(JSON.parse(plain.body.toString()));
      // The second read gets the very bytes the first one got: from the cache, not compressed again.
      const again = await get('/api/products', { ...user.headers, 'accept-encoding': accept });
      expect(again.body.equals(res.body)).toBe(true);
    }
  });

  it('sends other JSON answers over 1 KB compressed too', async () => {
    const plain = await get('/api/openapi.json');
    expect(plain.body.length).toBeGreaterThan(1024);
    const res = await get('/api/openapi.json', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(decode(res))).toEqual(JSON.parse(plain.body.toString()));
  });

  it('sends JSON under 1 KB as is', async () => {
    const stranger = await signIn(server, 'Stranger');
    const res = await get('/api/products', { ...stranger.headers, 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toEqual({ products: [], nextCursor: null });
  });

  it('does not compress images again', async () => {
    const product = await createProduct(
      server,
      user,
      {},
      {
        field: 'image',
        filename: 'photo.png',
        contentType: 'image/png',
        data: await png(400, 300),
      },
    );
    const res = await get(new URL(product.image).pathname, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.subarray(8, 12).toString()).toBe('WEBP');
  });
});
