import { describe, expect, it } from 'vitest';
import { PRODUCT_SORTS, type ProductSort } from '../../../src/shared/constants.js';
import { V } from '../../../src/shared/messages.js';
import type { ProductListItem } from '../../../src/shared/schemas/products.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import { build } from '../support/build.js';
import { createProduct } from '../support/products.js';
import { signIn, type SignedIn } from '../support/accounts.js';

describe('product list', async () => {
  const server = await build();
  const user = await signIn(server);
  const list = (query: string, who: SignedIn = user) =>
    server.app.inject({ method: 'GET', url: `/api/products?${query}`, headers: who.headers });

  // 23 products with clashing prices, stocks and names, so that ties must be broken by id;
  // some share a creation time too.
  const names = ['Lamp', 'lamp', 'Émile chair', 'Zebra rug', 'apple box', 'Desk', '100% wool'];
  const created: ProductListItem[] = [];
  for (let i = 0; i < 23; i += 1) {
    if (i % 3 !== 0) server.clock.advance(1000);
    created.push(
      await createProduct(server, user, {
        name: `${names[i % names.length]}${i % 2 ? '' : ` ${i}`}`,
        price: String((i % 5) + 0.5),
        stock: String(i % 4),
        description: i === 7 ? 'Made of 5_star oak' : `Item number ${i}`,
      }),
    );
  }

  /** Follows nextCursor to the end; returns the ids in the order served. */
  async function walk(sort: ProductSort, limit: number, q = '') {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query = new URLSearchParams({ sort, limit: String(limit) });
      if (q) query.set('q', q);
      if (cursor) query.set('cursor', cursor);
      const res = await list(query.toString());
      expect(res.statusCode).toBe(200);
      const body = res.json() as { products: ProductListItem[]; nextCursor: string | null };
      expect(body.products.length).toBeLessThanOrEqual(limit);
      ids.push(...body.products.map((product) => product.id));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor && pages < 100);
    return ids;
  }

  const rowsBy = async (sort: ProductSort) => {
    const repository = new ProductRepository(server.database.db, server.database.dialect);
    const { rows } = await repository.list((await me()).id, { sort, limit: 1000 });
    return rows;
  };
  const me = async () =>
    (
      await server.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.headers })
    ).json().user as { id: string };

  it('answers {products, nextCursor}, newest first, with the list fields only', async () => {
    const res = await list('limit=3');
    const body = res.json();
    expect(Object.keys(body)).toEqual(['products', 'nextCursor']);
    const ids = body.products.map((p: ProductListItem) => p.id);
    // The last product is the only one at the newest time; the two before it share a time.
    expect(ids[0]).toBe(created[22]!.id);
    expect(new Set(ids)).toEqual(new Set(created.slice(-3).map((p) => p.id)));
    expect(Object.keys(body.products[0]).sort()).toEqual(
      [
        'barcode',
        'description',
        'id',
        'image',
        'name',
        'price',
        // Whether it is to reorder: the list's badge and its 'To reorder' filter agree.
        'reorderPoint',
        'sku',
        'stock',
        'tags',
        'thumbnail',
      ].sort(),
    );
    expect(body.nextCursor).toEqual(expect.any(String));
  });

  it.each(PRODUCT_SORTS)('walks every product exactly once sorted by %s', async (sort) => {
    for (const limit of [1, 4, 23, 100]) {
      const ids = await walk(sort, limit);
      expect(ids).toHaveLength(created.length);
      expect(new Set(ids).size).toBe(created.length);
    }
  });

  it('orders each sort by its key, ties by id', async () => {
    const ids = await walk('price-asc', 5);
    const byId = new Map(created.map((p) => [p.id, p]));
    const prices = ids.map((id) => byId.get(id)!.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const stocks = (await walk('stock-desc', 5)).map((id) => byId.get(id)!.stock);
    expect(stocks).toEqual([...stocks].sort((a, b) => b - a));
    // Name order ignores case and accents: "apple", "desk", "émile", "lamp", "zebra".
    const firstLetters = (await walk('name', 6)).map((id) =>
      byId.get(id)!.name.normalize('NFD')[0]!.toLowerCase(),
    );
    expect(firstLetters).toEqual([...firstLetters].sort());
    expect(await walk('oldest', 7)).toEqual((await walk('newest', 5)).reverse());
    // Paging changes nothing: a walk in small pages equals one page of everything.
    for (const sort of PRODUCT_SORTS) {
      expect(await walk(sort, 4)).toEqual((await rowsBy(sort)).map((row) => row.id));
    }
  });

  it('gives nextCursor null on the last page, also when it is exactly full', async () => {
    expect((await list('limit=23')).json().nextCursor).toBeNull();
    expect((await list('limit=22')).json().nextCursor).not.toBeNull();
  });

  it('searches name and description, ignoring case and accents', async () => {
    const names = async (q: string) =>
      (await walk('name', 50, q)).map((id) => created.find((p) => p.id === id)!.name);
    expect(await names('LAMP')).toHaveLength(
      created.filter((p) => p.name.toLowerCase().includes('lamp')).length,
    );
    expect(await names('emile')).toEqual(expect.arrayContaining([expect.stringMatching(/^Émile/)]));
    expect(await names('number 12')).toEqual(['Desk 12']);
  });

  it('takes % and _ literally in a search', async () => {
    expect(await walk('newest', 50, '100%')).toHaveLength(
      created.filter((p) => p.name.startsWith('100%')).length,
    );
    expect(await walk('newest', 50, '%')).toHaveLength(
      created.filter((p) => p.name.includes('%')).length,
    );
    expect(await walk('newest', 50, '5_star')).toEqual([created[7]!.id]);
    expect(await walk('newest', 50, '_')).toEqual([created[7]!.id]);
    expect(await walk('newest', 50, '\\')).toEqual([]);
    expect(await walk('newest', 50, 'nothing like this')).toEqual([]);
    // A NUL, which PostgreSQL text cannot hold: no match, and no error.
    expect(await walk('newest', 50, 'a\u0000b')).toEqual([]);
  });

  it('refuses a search longer than 200 characters once folded, in the API error shape', async () => {
    // 12 characters, 216 once U+FDFA is spelled out; and 201 characters as sent.
    for (const q of ['\uFDFA'.repeat(12), 'a'.repeat(201)]) {
      const res = await list(`q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: V.searchTooLong,
        errors: [{ path: 'q', message: V.searchTooLong }],
      });
    }
    expect((await list(`q=${encodeURIComponent('\uFDFA'.repeat(11))}`)).statusCode).toBe(200);
  });

  it('refuses a limit out of range and an unknown sort with a 400', async () => {
    for (const limit of ['0', '101', '-1', '2.5', 'ten', '']) {
      const res = await list(`limit=${limit}`);
      expect(res.statusCode, `limit=${limit}`).toBe(400);
      expect(res.json()).toEqual({
        message: 'limit must be a whole number from 1 to 100',
        errors: [{ path: 'limit', message: 'limit must be a whole number from 1 to 100' }],
      });
    }
    expect((await list('limit=1')).statusCode).toBe(200);
    expect((await list('limit=100')).statusCode).toBe(200);
    const sort = await list('sort=cheapest');
    expect(sort.statusCode).toBe(400);
    expect(sort.json().errors[0].path).toBe('sort');
  });

  it('refuses malformed cursors and cursors of another order with a 400, never a 500', async () => {
    const nameCursor = (await list('sort=name&limit=1')).json().nextCursor as string;
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const bad = [
      'garbage',
      '!!!',
      b64({ a: 1 }),
      b64(['newest', 'not a number', 'x']),
      b64(['newest', 1.5, 'x']),
      b64(['newest', 1, 2]),
      b64(['newest', 1]),
      'x'.repeat(3000),
    ];
    for (const cursor of bad) {
      const res = await list(`cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json().message).toBe('cursor is not valid');
    }
    const mixed = await list(`sort=price-asc&cursor=${nameCursor}`);
    expect(mixed.statusCode).toBe(400);
    expect((await list(`sort=name&cursor=${nameCursor}`)).statusCode).toBe(200);
    // A well-formed cursor naming no real row is only a position: fine.
    expect((await list(`cursor=${b64(['newest', 0, 'nobody'])}`)).json().products).toEqual([]);
  });
});
