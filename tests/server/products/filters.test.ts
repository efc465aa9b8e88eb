import { describe, expect, it } from 'vitest';
import { MAX_STOCK, PRODUCT_SORTS } from '../../../src/shared/constants.js';
import { V } from '../../../src/shared/messages.js';
import type { ProductSummary } from '../../../src/shared/schemas/catalogue.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import {
  adjustStock,
  allProducts,
  createProduct,
  getSummary,
  listProducts,
} from '../support/products.js';

describe('stock filters and the summary', async () => {
  const server = await build();
  const user = await signIn(server);
  const other = await signIn(server);
  // Stocks on both sides of each bound; prices whose sum in binary floating point is not exact.
  const stocks = [0, 0, 1, 5, 10, 11, 100, 3];
  for (const [i, stock] of stocks.entries()) {
    server.clock.advance(1000);
    await createProduct(server, user, {
      name: `${i % 2 ? 'Lamp' : 'Rug'} ${i}`,
      price: ['0.10', '0.20', '19.99', '0.07', '1', '2.50', '0.01', '33.33'][i]!,
      stock: String(stock),
      description: `Item ${i}`,
    });
  }
  await createProduct(server, other, { name: 'Lamp of another', stock: '0' });

  const stocksOf = async (query: string) =>
    (await allProducts(server, user, query)).map((product) => product.stock);

  it('stock=low keeps 1 to 10 units, stock=out keeps 0, in every order', async () => {
    expect((await stocksOf('stock=low')).sort((a, b) => a - b)).toEqual([1, 3, 5, 10]);
    expect(await stocksOf('stock=out')).toEqual([0, 0]);
    expect(await stocksOf('stock=low&sort=stock-asc')).toEqual([1, 3, 5, 10]);
    expect(await stocksOf('stock=low&sort=stock-desc')).toEqual([10, 5, 3, 1]);
    for (const sort of PRODUCT_SORTS) {
      const all = await allProducts(server, user, `sort=${sort}`);
      for (const filter of ['low', 'out'] as const) {
        const filtered = await allProducts(server, user, `sort=${sort}&stock=${filter}`);
        const keep = (stock: number) =>
          filter === 'out' ? stock === 0 : stock >= 1 && stock <= 10;
        // The same order as the unfiltered list, less what the filter leaves out.
        expect(filtered.map((product) => product.id)).toEqual(
          all.filter((product) => keep(product.stock)).map((product) => product.id),
        );
      }
    }
  });

  it('pages a filtered list with cursors, and combines it with a search', async () => {
    const pages: number[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = `stock=low&sort=stock-asc&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const body = (await listProducts(server, user, query)).json();
      pages.push(body.products.map((product: { stock: number }) => product.stock));
      cursor = body.nextCursor;
    } while (cursor);
    expect(pages).toEqual([[1, 3, 5], [10]]);
    expect((await allProducts(server, user, 'q=lamp&stock=low')).map((p) => p.name)).toEqual([
      'Lamp 7',
      'Lamp 3',
    ]);
  });

  it('refuses another stock value', async () => {
    for (const value of ['all', 'LOW', '', '0']) {
      for (const path of ['/api/products', '/api/products/summary']) {
        const res = await server.app.inject({
          method: 'GET',
          url: `${path}?stock=${value}`,
          headers: user.headers,
        });
        expect(res.statusCode, `${path} ${value}`).toBe(400);
        expect(res.json()).toMatchObject({
          message: V.stockFilterInvalid,
          errors: [{ path: 'stock', message: V.stockFilterInvalid }],
        });
      }
    }
  });

  it('sums count, units and value (exact cents) for the filter and the search', async () => {
    const summary = async (query = '') => {
      const res = await getSummary(server, user, query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ProductSummary;
    };
    // 0.10×0 + 0.20×0 + 19.99×1 + 0.07×5 + 1×10 + 2.50×11 + 0.01×100 + 33.33×3
    expect(await summary()).toEqual({ count: 8, units: 130, value: 158.83, toReorder: 6 });
    expect(await summary('stock=low')).toEqual({
      count: 4,
      units: 19,
      value: 130.33,
      toReorder: 4,
    });
    expect(await summary('stock=out')).toEqual({ count: 2, units: 0, value: 0, toReorder: 2 });
    expect(await summary('q=lamp')).toEqual({ count: 4, units: 19, value: 127.84, toReorder: 3 });
    expect(await summary('q=lamp&stock=low')).toEqual({
      count: 2,
      units: 8,
      value: 100.34,
      toReorder: 2,
    });
    expect(await summary('q=nothing')).toEqual({ count: 0, units: 0, value: 0, toReorder: 0 });
    // What a float sum gets wrong: 0.1 + 0.2.
    const fresh = await signIn(server);
    await createProduct(server, fresh, { price: '0.10', stock: '1' });
    await createProduct(server, fresh, { price: '0.20', stock: '1' });
    expect((await getSummary(server, fresh)).json()).toEqual({
      count: 2,
      units: 2,
      value: 0.3,
      toReorder: 2,
    });
  });

  it('shows a change in the summary read after it', async () => {
    const fresh = await signIn(server);
    const product = await createProduct(server, fresh, { price: '2.50', stock: '4' });
    for (let i = 0; i < 2; i += 1) {
      expect((await getSummary(server, fresh)).json()).toEqual({
        count: 1,
        units: 4,
        value: 10,
        toReorder: 1,
      });
    }
    await adjustStock(server, fresh, product.id, { delta: -1 });
    expect((await getSummary(server, fresh)).json()).toEqual({
      count: 1,
      units: 3,
      value: 7.5,
      toReorder: 1,
    });
    expect((await getSummary(server, fresh, 'stock=low')).json()).toMatchObject({ count: 1 });
  });

  it('answers for the largest values a product can hold', async () => {
    const fresh = await signIn(server);
    for (let i = 0; i < 5; i += 1) {
      await createProduct(server, fresh, { price: '99999999.99', stock: String(MAX_STOCK) });
    }
    const res = await getSummary(server, fresh);
    expect(res.statusCode).toBe(200);
    const body = res.json() as ProductSummary;
    expect(body.count).toBe(5);
    expect(body.units).toBe(5 * MAX_STOCK);
    // 5 × 9,999,999,999 × 2,147,483,647 cents: past 2^63, sent exactly as text.
    expect(body.value).toBe('1073741823392625817.65');
  });
});
