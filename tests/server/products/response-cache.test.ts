import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import {
  preferredEncoding,
  ResponseCache,
} from '../../../src/server/features/products/response-cache.js';
import { M } from '../../../src/shared/messages.js';
import {
  productListResponseSchema,
  productResponseSchema,
} from '../../../src/shared/schemas/products.js';
import { build, checkAnswersOf, type TestServer } from '../support/build.js';
import { createProduct, patchProduct } from '../support/products.js';
import { signIn, type SignedIn } from '../support/accounts.js';

describe('ResponseCache', () => {
  it('keeps the most recently used pages within its byte budget', () => {
    // Each entry costs its 10-byte body, its 1-character key (2 bytes) and 200 bytes of overhead.
    const cache = new ResponseCache(4 * 212);
    cache.set('a', Buffer.from('x'.repeat(10)));
    cache.set('b', Buffer.from('y'.repeat(10)));
    cache.set('c', Buffer.from('z'.repeat(10)));
    expect(cache.get('a')?.toString()).toBe('x'.repeat(10)); // a is now the most recent
    cache.set('d', Buffer.from('w'.repeat(10)));
    cache.set('e', Buffer.from('v'.repeat(10))); // a fifth entry: the least recent (b) goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('e')).toBeDefined();
  });

  it('counts keys too: many small entries with long keys stay within the budget', () => {
    const cache = new ResponseCache(100_000);
    for (let i = 0; i < 10_000; i += 1) cache.set(`${i}:${'k'.repeat(1000)}`, Buffer.from('{}'));
    expect(cache.size).toBeLessThanOrEqual(100_000);
    expect(cache.get(`9999:${'k'.repeat(1000)}`)).toBeDefined();
    expect(cache.get(`0:${'k'.repeat(1000)}`)).toBeUndefined();
  });

  it('keeps its own copy of a small body, not a slice of a shared pool block', () => {
    const cache = new ResponseCache(100_000);
    const pooled = Buffer.from('{"products":[]}');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length); // Node's 8 KB pool
    cache.set('page', pooled);
    const kept = cache.get('page')!;
    expect(kept.toString()).toBe('{"products":[]}');
    expect(kept.buffer.byteLength).toBe(kept.length);
  });

  it('does not keep a page larger than a quarter of its budget', () => {
    const cache = new ResponseCache(2000);
    cache.set('big', Buffer.alloc(400)); // 400 + 6 + 200 bytes: more than 500
    cache.set('fits', Buffer.alloc(250));
    expect(cache.get('fits')).toBeDefined();
    expect(cache.get('big')).toBeUndefined();
  });

  it('keeps nothing with a budget of 0', () => {
    const cache = new ResponseCache(0);
    cache.set('page', Buffer.from('{}'));
    expect(cache.get('page')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keys pages by owner, catalogue version and query', () => {
    const query = { sort: 'newest', limit: 50 };
    expect(ResponseCache.key('u', 1, query)).not.toBe(ResponseCache.key('u', 2, query));
    expect(ResponseCache.key('u', 1, query)).not.toBe(ResponseCache.key('v', 1, query));
    expect(ResponseCache.key('u', 1, query)).not.toBe(
      ResponseCache.key('u', 1, { ...query, limit: 10 }),
    );
  });
});

describe('ResponseCache.answer', () => {
  const page = Buffer.from(JSON.stringify({ products: 'lamp '.repeat(400) }));
  const counted = () => {
    const builds = { count: 0 };
    const build = async () => {
      builds.count += 1;
      return page;
    };
    return { builds, build };
  };

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)(
    'keeps a large answer compressed with %s and compresses it only once',
    async (encoding, decode) => {
      const cache = new ResponseCache();
      const { builds, build } = counted();
      const first = await cache.answer('k', encoding, build);
      expect(first.encoding).toBe(encoding);
      expect(first.body.length).toBeLessThan(page.length / 10);
      expect(decode(first.body).equals(page)).toBe(true);
      const second = await cache.answer('k', encoding, build);
      // The very Buffer kept the first time: no second build, no second compression.
      expect(second.body).toBe(first.body);
      expect(builds.count).toBe(1);
      // Only the compressed copy is kept.
      expect(cache.size).toBeLessThan(page.length / 2);
    },
  );

  it('keeps a small answer, or one for a client that takes no compression, as it is', async () => {
    const cache = new ResponseCache();
    const { builds, build } = counted();
    const plain = await cache.answer('k', 'identity', build);
    expect(plain).toEqual({ body: page, encoding: 'identity' });
    const small = Buffer.from('{"products":[]}');
    const answer = await cache.answer('s', 'br', async () => small);
    expect(answer).toEqual({ body: small, encoding: 'identity' });
    expect((await cache.answer('s', 'br', build)).body.toString()).toBe('{"products":[]}');
    expect(builds.count).toBe(1);
  });

  it('keeps nothing with a budget of 0, and compresses each time', async () => {
    const cache = new ResponseCache(0);
    const { builds, build } = counted();
    await cache.answer('k', 'br', build);
    await cache.answer('k', 'br', build);
    expect(builds.count).toBe(2);
    expect(cache.size).toBe(0);
  });

  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['*', 'br'],
    ['*, br;q=0', 'gzip'],
    ['BR', 'br'],
  ] as const)('takes Accept-Encoding %j as %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('the cached product list', async () => {
  const server: TestServer = await build();
  // A second server process on the same database: what one writes, the other must see at once.
  const other = await checkAnswersOf(
    await buildApp({
      config: server.config,
      database: server.database,
      clock: server.clock,
      clientDir: path.join(server.dataDir, 'no-client'),
    }),
  );
  afterAll(() => other.close());
  const user: SignedIn = await signIn(server);

  const list = async (app = server.app, url = '/api/products') => {
    const res = await app.inject({ method: 'GET', url, headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    // Exactly the schema's fields, nothing more: the string is sent as built.
    return productListResponseSchema.strict().parse(res.json());
  };

  it('answers a repeated page from the cache with the same bytes', async () => {
    await createProduct(server, user, { name: 'Lamp' });
    const first = await server.app.inject({
      method: 'GET',
      url: '/api/products',
      headers: user.headers,
    });
    const second = await server.app.inject({
      method: 'GET',
      url: '/api/products',
      headers: user.headers,
    });
    expect(second.body).toBe(first.body);
    expect((await list()).products.map((p) => p.name)).toEqual(['Lamp']);
  });

  it('shows a write made through another process at once', async () => {
    const before = await list();
    const [lamp] = before.products;
    await list(other); // both processes have the page cached now

    const res = await patchProduct(server, user, lamp!.id, { name: 'Desk lamp' });
    expect(res.statusCode).toBe(200);
    expect((await list(other)).products[0]!.name).toBe('Desk lamp');

    server.clock.advance(1000); // newest first needs distinct creation times
    const created = await other.inject({
      method: 'POST',
      url: '/api/products',
      headers: user.headers,
      payload: { name: 'Chair', price: 49.5, stock: 3, description: 'Oak' },
    });
    expect(created.statusCode).toBe(201);
    expect((await list()).products.map((p) => p.name)).toEqual(['Chair', 'Desk lamp']);

    const deleted = await other.inject({
      method: 'DELETE',
      url: `/api/products/${lamp!.id}`,
      headers: user.headers,
    });
    expect(deleted.statusCode).toBe(200);
    expect((await list()).products.map((p) => p.name)).toEqual(['Chair']);
  });

  it('answers a repeated product read from the cache and shows edits and deletes at once', async () => {
    const created = await createProduct(server, user, { name: 'Stool' });
    const url = `/api/products/${created.id}`;
    const read = (app = server.app) => app.inject({ method: 'GET', url, headers: user.headers });
    const first = await read();
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(productResponseSchema.strict().parse(first.json()).product.name).toBe('Stool');
    expect((await read()).body).toBe(first.body);
    await read(other);

    expect((await patchProduct(server, user, created.id, { name: 'Tall stool' })).statusCode).toBe(
      200,
    );
    expect((await read(other)).json().product.name).toBe('Tall stool');

    const deleted = await other.inject({ method: 'DELETE', url, headers: user.headers });
    expect(deleted.statusCode).toBe(200);
    const gone = await read();
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ message: M.productNotFound });
  });

  it('never serves one user a page cached for another', async () => {
    await list();
    const stranger = await signIn(server, 'Stranger');
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/products',
      headers: stranger.headers,
    });
    expect(res.json()).toEqual({ products: [], nextCursor: null });
  });
});
