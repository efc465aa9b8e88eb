import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PRODUCT_SORTS } from '../../../src/shared/constants.js';
import { REORDER_MESSAGES } from '../../../src/shared/reorder.js';
import type { Catalogue } from '../../../src/shared/schemas/catalogues.js';
import type { ProductSummary } from '../../../src/shared/schemas/catalogue.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import { build } from '../support/build.js';
import {
  adjustStock,
  allProducts,
  createProduct,
  countProductWrites,
  csvText,
  getSummary,
  importCsv,
  listProducts,
  patchProduct,
  stopCountingProductWrites,
} from '../support/products.js';
import { addMember, api, member, newCatalogue } from '../catalogues/support.js';
import { addWebhook } from '../webhooks/support.js';

describe('reorder points, the stock=reorder filter and crossings', async () => {
  const server = await build();
  const db = server.database.db;
  const owner = await member(server, 'Owner');

  const crossedAt = async (id: string) =>
    (
      await db
        .selectFrom('products')
        .select('reorder_crossed_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).reorder_crossed_at;
  const json = (body: object) => ({
    method: 'POST' as const,
    headers: { ...owner.headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

  it('takes a product reorder point in JSON and forms, and answers it', async () => {
    const res = await server.app.inject({
      ...json({ name: 'Tape', description: 'Roll', price: 2, stock: 30, reorderPoint: 25 }),
      url: '/api/products',
    });
    expect(res.statusCode, res.body).toBe(201);
    const product = (res.json() as { product: Product }).product;
    expect(product.reorderPoint).toBe(25);
    // The field comes last but the reorder quantity; every other one as before.
    expect(Object.keys(product).slice(-2)).toEqual(['reorderPoint', 'reorderQuantity']);
    const plain = await createProduct(server, owner, { name: 'Glue' });
    expect(plain.reorderPoint).toBeNull();
    const patched = await patchProduct(server, owner, plain.id, { reorderPoint: '4' });
    expect(patched.json().product.reorderPoint).toBe(4);
    const cleared = await patchProduct(server, owner, plain.id, { reorderPoint: '' });
    expect(cleared.json().product.reorderPoint).toBeNull();
    const kept = await patchProduct(server, owner, product.id, { name: 'Tape 2' });
    expect(kept.json().product.reorderPoint).toBe(25);
  });

  it.each([[-1], [1.5], ['ten'], [1_000_001], [true]])(
    'refuses a reorder point of %j with 400',
    async (value) => {
      const res = await server.app.inject({
        ...json({ name: 'X', description: 'Y', price: 1, stock: 1, reorderPoint: value }),
        url: '/api/products',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(REORDER_MESSAGES.reorderPointInvalid);
    },
  );

  it('by default, stock=reorder keeps what low and out keep; a product point overrides', async () => {
    const user = await member(server);
    for (const stock of [0, 1, 10, 11, 50]) {
      await createProduct(server, user, { name: `S${stock}`, stock: String(stock) });
    }
    const names = async (query: string) =>
      (await allProducts(server, user, query)).map((p) => p.name).sort();
    const lowOrOut = [...(await names('stock=low')), ...(await names('stock=out'))].sort();
    expect(await names('stock=reorder')).toEqual(lowOrOut);
    for (const sort of ['newest', 'name', 'price-asc', 'stock-asc', 'stock-desc']) {
      expect(await names(`stock=reorder&sort=${sort}`)).toEqual(['S0', 'S1', 'S10']);
    }
    const summary = (await getSummary(server, user)).json() as ProductSummary;
    expect(summary.toReorder).toBe(3);

    const s50 = (await allProducts(server, user, 'q=S50'))[0]!;
    const s1 = (await allProducts(server, user, 'q=S1&sort=name'))[0]!;
    await patchProduct(server, user, s50.id, { reorderPoint: '60' });
    await patchProduct(server, user, s1.id, { reorderPoint: '0' });
    expect(await names('stock=reorder')).toEqual(['S0', 'S10', 'S50']);
    expect(((await getSummary(server, user, 'stock=reorder')).json() as ProductSummary).count).toBe(
      3,
    );

    // The catalogue's point: the list and the summary follow at once (no stale cached answer).
    const res = await api(server, user, 'PATCH', `/api/catalogues/${user.id}`, {
      reorderPoint: 11,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { catalogue: Catalogue }).catalogue.reorderPoint).toBe(11);
    expect(await names('stock=reorder')).toEqual(['S0', 'S10', 'S11', 'S50']);
    expect(((await getSummary(server, user)).json() as ProductSummary).toReorder).toBe(4);
  });

  it('pages through stock=reorder in every order, each product once', async () => {
    const user = await member(server);
    for (let i = 0; i < 9; i += 1) {
      await createProduct(server, user, {
        name: `R${(i * 7) % 9}`,
        stock: String(i % 3 === 0 ? 40 : i),
        price: String((i % 4) + 1),
        ...(i % 3 === 0 ? { reorderPoint: '45' } : {}),
      });
    }
    for (const sort of PRODUCT_SORTS) {
      const whole = (await allProducts(server, user, `stock=reorder&sort=${sort}`)).map(
        (p) => p.id,
      );
      expect(whole, sort).toHaveLength(9);
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const query = `stock=reorder&sort=${sort}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = (await listProducts(server, user, query)).json() as {
          products: { id: string }[];
          nextCursor: string | null;
        };
        paged.push(...page.products.map((p) => p.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(paged, sort).toEqual(whole);
    }
  });

  it('shows and changes a catalogue point for the roles that may rename it', async () => {
    const catalogue = await newCatalogue(server, owner, 'Store');
    expect(catalogue.reorderPoint).toBe(10);
    const list = await api(server, owner, 'GET', '/api/catalogues');
    const listed = (list.json() as { catalogues: Catalogue[] }).catalogues;
    expect(listed.every((c) => c.reorderPoint === 10)).toBe(true);
    const editor = await member(server);
    await addMember(server, catalogue.id, editor, 'editor');
    const refused = await api(server, editor, 'PATCH', `/api/catalogues/${catalogue.id}`, {
      reorderPoint: 3,
    });
    expect(refused.statusCode).toBe(403);
    for (const bad of [-1, 2.5, '3', 1_000_001, null]) {
      const res = await api(server, owner, 'PATCH', `/api/catalogues/${catalogue.id}`, {
        reorderPoint: bad,
      });
      expect(res.statusCode, String(bad)).toBe(400);
    }
    const done = await api(server, owner, 'PATCH', `/api/catalogues/${catalogue.id}`, {
      reorderPoint: 3,
    });
    expect(done.json()).toMatchObject({
      message: 'Catalogue updated',
      catalogue: { name: 'Store', reorderPoint: 3 },
    });
    const got = await api(server, editor, 'GET', `/api/catalogues/${catalogue.id}`);
    expect(got.json().catalogue.reorderPoint).toBe(3);
  });

  it('marks a crossing once, and again only after a restock above the point', async () => {
    const product = await createProduct(server, owner, { name: 'Cross', stock: '20' });
    expect(await crossedAt(product.id)).toBeNull();
    server.clock.advance(1000);
    const first = server.clock.now();
    await adjustStock(server, owner, product.id, { delta: -12 }); // 8: crossed
    expect(await crossedAt(product.id)).toBe(first);
    server.clock.advance(1000);
    await adjustStock(server, owner, product.id, { delta: -3 }); // 5: still below, same crossing
    expect(await crossedAt(product.id)).toBe(first);
    await adjustStock(server, owner, product.id, { count: 11 }); // restocked
    expect(await crossedAt(product.id)).toBeNull();
    server.clock.advance(1000);
    await adjustStock(server, owner, product.id, { count: 10 }); // a count: crossed again
    expect(await crossedAt(product.id)).toBe(server.clock.now());
    await patchProduct(server, owner, product.id, { stock: '40' }); // an edit restocks
    expect(await crossedAt(product.id)).toBeNull();
    server.clock.advance(1000);
    await patchProduct(server, owner, product.id, { reorderPoint: '40' }); // its point moves
    expect(await crossedAt(product.id)).toBe(server.clock.now());
    await patchProduct(server, owner, product.id, { reorderPoint: '' });
    expect(await crossedAt(product.id)).toBeNull();
  });

  /**
   * A second write of a new product (its mark set after its insert) is a new version of its row:
   * every index of the product is written again, on PostgreSQL its search key's trigrams too, which
   * doubled the time of an import of long descriptions. Counted by a trigger of the test's own.
   */
  it('writes a product once as it is created, imported, re-imported or its stock changes', async () => {
    const user = await member(server);
    await countProductWrites(server);
    await addWebhook(server, user, user.id, 'https://hooks.example.com/marks', ['reorder.reached']);
    try {
      server.clock.advance(1000);
      const created = await createProduct(server, user, { name: 'Made low', stock: '2' });
      const csv = csvText([
        ['name', 'price', 'stock', 'description'],
        ['Imported low', '1', '3', 'd'],
        ['Imported out', '1', '0', 'd'],
        ['Imported high', '1', '300', 'd'],
      ]);
      const res = await importCsv(server, user, csv);
      expect(res.statusCode, res.body).toBe(200);
      const rows = await db
        .selectFrom('products')
        .select(['id', 'name', 'reorder_crossed_at'])
        .where('catalogue_id', '=', user.id)
        .execute();
      expect(Object.fromEntries(rows.map((row) => [row.name, row.reorder_crossed_at]))).toEqual({
        'Made low': server.clock.now(),
        'Imported low': server.clock.now(),
        'Imported out': server.clock.now(),
        'Imported high': null,
      });
      expect(rows.map((row) => row.id)).toContain(created.id);
      const { rows: rewritten } = await sql<{
        id: string;
      }>`select product_id as id from product_writes`.execute(db);
      expect(rewritten.filter(({ id }) => rows.some((row) => row.id === id))).toEqual([]);

      // Written over: each product once, its mark set, cleared or kept in the same statement.
      server.clock.advance(1000);
      const id = (name: string) => rows.find((row) => row.name === name)!.id;
      const again = csvText([
        ['id', 'name', 'price', 'stock', 'description'],
        [id('Imported low'), 'Imported low', '1', '50', 'd'],
        [id('Imported out'), 'Imported out', '1', '1', 'd'],
        [id('Imported high'), 'Imported high', '1', '4', 'd'],
      ]);
      const reimported = await importCsv(server, user, again);
      expect(reimported.statusCode, reimported.body).toBe(200);
      const marks = await db
        .selectFrom('products')
        .select(['name', 'reorder_crossed_at'])
        .where('catalogue_id', '=', user.id)
        .execute();
      expect(Object.fromEntries(marks.map((row) => [row.name, row.reorder_crossed_at]))).toEqual({
        'Made low': server.clock.now() - 1000,
        'Imported low': null,
        'Imported out': server.clock.now() - 1000,
        'Imported high': server.clock.now(),
      });
      const { rows: writes } = await sql<{
        id: string;
      }>`select product_id as id from product_writes`.execute(db);
      const times = (name: string) => writes.filter((write) => write.id === id(name)).length;
      expect(['Imported low', 'Imported out', 'Imported high'].map(times)).toEqual([1, 1, 1]);

      // A change of stock: the stock, when it last moved and the mark, in one write.
      await sql`delete from product_writes`.execute(db);
      server.clock.advance(1000);
      await adjustStock(server, user, id('Imported low'), { delta: -45 }); // 5: crossed
      await adjustStock(server, user, id('Imported out'), { count: 40 }); // restocked
      await adjustStock(server, user, id('Imported high'), { delta: 1 }); // still to reorder
      const after = await db
        .selectFrom('products')
        .select(['name', 'reorder_crossed_at', 'last_moved_at'])
        .where('catalogue_id', '=', user.id)
        .where('name', 'like', 'Imported%')
        .execute();
      expect(after.map((row) => [row.name, row.reorder_crossed_at, row.last_moved_at])).toEqual(
        expect.arrayContaining([
          ['Imported low', server.clock.now(), server.clock.now()],
          ['Imported out', null, server.clock.now()],
          ['Imported high', server.clock.now() - 1000, server.clock.now()],
        ]),
      );
      const { rows: changes } = await sql<{
        id: string;
      }>`select product_id as id from product_writes`.execute(db);
      const changed = (name: string) => changes.filter((write) => write.id === id(name)).length;
      expect(['Imported low', 'Imported out', 'Imported high'].map(changed)).toEqual([1, 1, 1]);

      // An edit of its stock: once too.
      await patchProduct(server, user, id('Imported out'), { stock: '7' });
      const { rows: edits } = await sql<{ id: string }>`select product_id as id from product_writes
        where product_id = ${id('Imported out')}`.execute(db);
      expect(edits).toHaveLength(2);
      expect(await crossedAt(id('Imported out'))).toBe(server.clock.now());

      // Each crossing announced once, with the stock and the point it was reached at.
      const announced = await db
        .selectFrom('webhook_deliveries')
        .select('payload')
        .where('catalogue_id', '=', user.id)
        .where('event_type', '=', 'reorder.reached')
        .execute();
      const reached = announced.map((row) => {
        const { data } = JSON.parse(row.payload) as {
          data: { product: { name: string }; stock: number; reorderPoint: number };
        };
        return `${data.product.name} ${data.stock} of ${data.reorderPoint}`;
      });
      expect(reached.sort()).toEqual([
        'Imported high 4 of 10',
        'Imported low 3 of 10',
        'Imported low 5 of 10',
        'Imported out 0 of 10',
        'Imported out 7 of 10',
        'Made low 2 of 10',
      ]);
    } finally {
      await stopCountingProductWrites(server);
    }
  });

  it('marks crossings made by an import, created and updated, and by a catalogue point', async () => {
    const user = await member(server);
    const existing = await createProduct(server, user, { name: 'Old', stock: '30' });
    server.clock.advance(1000);
    const csv = csvText([
      ['id', 'name', 'price', 'stock', 'description'],
      [existing.id, 'Old', '1', '2', 'd'],
      ['', 'New low', '1', '3', 'd'],
      ['', 'New high', '1', '300', 'd'],
    ]);
    const res = await importCsv(server, user, csv);
    expect(res.statusCode, res.body).toBe(200);
    const byName = async () =>
      Object.fromEntries(
        (
          await db
            .selectFrom('products')
            .select(['name', 'reorder_crossed_at'])
            .where('catalogue_id', '=', user.id)
            .execute()
        ).map((row) => [row.name, row.reorder_crossed_at]),
      );
    expect(await byName()).toEqual({
      Old: server.clock.now(),
      'New low': server.clock.now(),
      'New high': null,
    });
    server.clock.advance(1000);
    await api(server, user, 'PATCH', `/api/catalogues/${user.id}`, { reorderPoint: 500 });
    expect((await byName())['New high']).toBe(server.clock.now());
    await api(server, user, 'PATCH', `/api/catalogues/${user.id}`, { reorderPoint: 2 });
    expect(await byName()).toMatchObject({
      Old: expect.any(Number),
      'New low': null,
      'New high': null,
    });
  });
});
