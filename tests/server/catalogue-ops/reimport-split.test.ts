import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  applyStagedUpdates,
  publishImport,
  stageImport,
  type ImportedUpdate,
} from '../../../src/server/features/products/index.js';
import { writeCatalogue } from '../../../src/server/features/writes/index.js';
import { signIn } from '../support/accounts.js';
import { build } from '../support/build.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import {
  adjustStock,
  csvText,
  deleteProduct,
  importCsv,
  patchProduct,
} from '../support/products.js';
import { csvForm } from '../support/server-process.js';

/** Matched rows of a re-import: dozens of applied batches on SQLite. */
const ROWS = 1_500;
const sqlite = !process.env.TEST_DATABASE_URL;

/**
 * A re-import is all or nothing however it is written: on SQLite its updates are staged, then
 * applied after its commit in short transactions (the sweep finishing them if the process dies);
 * on PostgreSQL in the one transaction. A failure before the commit leaves every product,
 * movement, tag, stock level and total as it was; a crash after it ends with every update
 * applied; another user's change of stock meanwhile is never lost, and each movement follows
 * from the stock its product had.
 */
describe('a re-import split into short transactions', async () => {
  const server = await build();
  const db = server.database.db;
  const base = sqlite ? await server.app.listen({ host: '127.0.0.1', port: 0 }) : '';

  /** A user whose catalogue holds ROWS products made by an import, and one more (the rival). */
  async function catalogue(name: string) {
    const user = await signIn(server);
    const rows = Array.from({ length: ROWS }, (_, i) => [
      `${name} ${i}`,
      `${(i % 50) + 1}.25`,
      String(i % 40),
      'A lamp',
      `${name}-${i}`,
      'old',
    ]);
    const res = await importCsv(
      server,
      user,
      csvText([['name', 'price', 'stock', 'description', 'sku', 'tags'], ...rows]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const products = await db
      .selectFrom('products')
      .select(['id', 'name', 'stock', 'catalogue_id'])
      .where('name', 'like', `${name} %`)
      .orderBy('id')
      .execute();
    expect(products.length).toBe(ROWS);
    const catalogueId = products[0]!.catalogue_id;
    const rival = (
      await importCsv(
        server,
        user,
        csvText([
          ['name', 'price', 'stock', 'description', 'sku'],
          ['Rival', '1.00', '1', 'Not in the file', `${name}-rival`],
        ]),
      )
    ).json() as { created: number };
    expect(rival.created).toBe(1);
    const { id: rivalId } = await db
      .selectFrom('products')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .where('name', '=', 'Rival')
      .executeTakeFirstOrThrow();
    return { user, products, catalogueId, rivalId };
  }

  /**
   * The re-import's file: every product's stock up 3, its description and tags changed; with
   * `newSku`, the first product's SKU becomes it; with `creates`, as many new products too.
   */
  function reimportCsv(
    products: { id: string; name: string; stock: number }[],
    options: { newSku?: string; creates?: number } = {},
  ) {
    return csvText([
      ['id', 'name', 'price', 'stock', 'description', 'sku', 'tags'],
      ...products.map((p, i) => [
        p.id,
        p.name,
        `${(i % 50) + 1}.25`,
        String(p.stock + 3),
        'A re-imported lamp',
        i === 0 && options.newSku ? options.newSku : p.name.replace(' ', '-'),
        'new; shelf',
      ]),
      ...Array.from({ length: options.creates ?? 0 }, (_, i) => [
        '',
        `Created ${i}`,
        '4.00',
        String(i % 9),
        'New',
        '',
        '',
      ]),
    ]);
  }

  /** Everything a re-import writes in a catalogue, but the products (and their rows) of `except`. */
  async function snapshot(catalogueId: string, except: string[] = []) {
    const none = except.length > 0 ? except : ['-'];
    return {
      products: await db
        .selectFrom('products')
        .selectAll()
        .where('catalogue_id', '=', catalogueId)
        .where('id', 'not in', none)
        .orderBy('id')
        .execute(),
      movements: await db
        .selectFrom('stock_movements')
        .selectAll()
        .where('catalogue_id', '=', catalogueId)
        .where('product_id', 'not in', none)
        .orderBy('id')
        .execute(),
      tags: await db
        .selectFrom('product_tags')
        .selectAll()
        .where('catalogue_id', '=', catalogueId)
        .where('product_id', 'not in', none)
        .orderBy('product_id')
        .orderBy('tag_key')
        .execute(),
      levels: await db
        .selectFrom('stock_levels')
        .selectAll()
        .where('catalogue_id', '=', catalogueId)
        .where('product_id', 'not in', none)
        .orderBy('product_id')
        .execute(),
    };
  }

  /** The catalogue's kept figures against a count from scratch: totals and days. */
  async function keptEqualsCounted(catalogueId: string) {
    expect(await keptTotals(db, catalogueId)).toEqual(await recountTotals(db, catalogueId));
    const { rows } = await sql<{ kept: number | string; counted: number | string }>`select
        (select coalesce(sum(units), 0) from catalogue_days where catalogue_id = ${catalogueId}) as kept,
        (select coalesce(sum(delta), 0) from stock_movements where catalogue_id = ${catalogueId}) as counted`.execute(
      db,
    );
    expect(Number(rows[0]!.kept)).toBe(Number(rows[0]!.counted));
  }

  /** The stock of each of the catalogue's products, by id. */
  const stocksOf = async (catalogueId: string) =>
    new Map(
      (
        await db
          .selectFrom('products')
          .select(['id', 'stock'])
          .where('catalogue_id', '=', catalogueId)
          .execute()
      ).map((p) => [p.id, p.stock]),
    );

  /** Each product's movements follow from each other, and end at its stock. */
  async function movementsChain(catalogueId: string) {
    const movements = await db
      .selectFrom('stock_movements')
      .select(['product_id', 'old_stock', 'new_stock'])
      .where('catalogue_id', '=', catalogueId)
      .orderBy('id')
      .execute();
    const stocks = await stocksOf(catalogueId);
    const last = new Map<string, number>();
    for (const m of movements) {
      expect(m.old_stock, m.product_id).toBe(last.get(m.product_id) ?? 0);
      last.set(m.product_id, m.new_stock);
    }
    for (const [id, stock] of stocks) expect(last.get(id) ?? 0, id).toBe(stock);
  }

  /** Whether an import is staging (its pending row written first): before its commit. */
  const staging = async () =>
    (await db.selectFrom('pending_imports').select('id').execute()).length;
  const leftOver = async () => ({
    pending: (await db.selectFrom('pending_imports').select('id').execute()).length,
    updates: (await db.selectFrom('import_updates').select('product_id').execute()).length,
    applying: (await db.selectFrom('import_applies').select('id').execute()).length,
  });
  const sweep = () => server.app.runner.runNow('sweeping failed imports');

  /** Waits until `reached` holds, the import still unanswered then (before its commit). */
  async function unansweredUntil(
    importing: Promise<unknown>,
    reached: () => Promise<boolean>,
    pause = 5,
  ) {
    let answered = false;
    void importing.finally(() => (answered = true));
    while (!(await reached()) && !answered) await sleep(pause);
    expect(answered).toBe(false);
  }

  it.runIf(sqlite)(
    'fails on a code taken meanwhile with nothing of it kept, a stock change meanwhile kept',
    async () => {
      const { user, products, catalogueId, rivalId } = await catalogue('Conflict');
      const moved = products.at(-1)!;
      const before = await snapshot(catalogueId, [rivalId, moved.id]);
      const importing = importCsv(
        server,
        user,
        reimportCsv(products, { newSku: 'TAKEN-1', creates: 1_500 }),
      );
      await unansweredUntil(importing, async () => (await staging()) > 0);
      // Another user's change of a product in the file, and the rival taking the new SKU.
      expect((await adjustStock(server, user, moved.id, { delta: 5 })).statusCode).toBe(200);
      const taken = await patchProduct(server, user, rivalId, { sku: 'TAKEN-1' });
      expect(taken.statusCode, taken.body).toBe(200);
      const res = await importing;
      expect(res.statusCode, res.body).toBe(409);
      expect(await leftOver()).toEqual({ pending: 0, updates: 0, applying: 0 });
      expect(await snapshot(catalogueId, [rivalId, moved.id])).toEqual(before);
      expect((await stocksOf(catalogueId)).get(moved.id)).toBe(moved.stock + 5);
      await movementsChain(catalogueId);
      await keptEqualsCounted(catalogueId);
    },
    120_000,
  );

  it.runIf(sqlite)('leaves nothing of it when its client goes away while it stages', async () => {
    const { user, products, catalogueId } = await catalogue('Gone');
    const before = await snapshot(catalogueId);
    const form = await csvForm(reimportCsv(products, { creates: 3_000 }));
    const abort = new AbortController();
    const sent = fetch(`${base}/api/products/import`, {
      method: 'POST',
      headers: { ...user.headers, ...form.headers },
      body: form.body,
      signal: abort.signal,
    }).catch((error: unknown) => error);
    while ((await staging()) === 0) await sleep(5);
    abort.abort();
    expect(await sent).toBeInstanceOf(Error);
    // The server drops what it staged on its own time.
    for (let i = 0; i < 600; i += 1) {
      const left = await leftOver();
      if (left.pending + left.updates === 0) break;
      await sleep(50);
    }
    expect(await leftOver()).toEqual({ pending: 0, updates: 0, applying: 0 });
    expect(await snapshot(catalogueId)).toEqual(before);
    await keptEqualsCounted(catalogueId);
  });

  it('keeps a stock change made while it applies, every movement from the stock before it', async () => {
    const { user, products, catalogueId } = await catalogue('Beside');
    // The last product by id: on SQLite applied in the last batch.
    const moved = products.at(-1)!;
    const importing = importCsv(server, user, reimportCsv(products));
    if (sqlite) {
      await unansweredUntil(importing, async () => (await leftOver()).applying > 0, 2);
    } else {
      await sleep(20);
    }
    expect((await adjustStock(server, user, moved.id, { delta: 5 })).statusCode).toBe(200);
    const res = await importing;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 0, updated: ROWS });
    const stock = (await stocksOf(catalogueId)).get(moved.id);
    // Applied after the change (its movement from the changed stock), or the change after it.
    expect([moved.stock + 3, moved.stock + 8]).toContain(stock);
    const mine = await db
      .selectFrom('stock_movements')
      .select(['old_stock', 'new_stock'])
      .where('product_id', '=', moved.id)
      .where('source', '!=', 'import')
      .execute();
    expect(mine.map((m) => m.new_stock - m.old_stock)).toEqual([5]);
    await movementsChain(catalogueId);
    await keptEqualsCounted(catalogueId);
    if (sqlite) expect(await leftOver()).toEqual({ pending: 0, updates: 0, applying: 0 });
  });

  it.runIf(sqlite)(
    'answers its committed result when the database fails after its commit, the sweep finishing it',
    async () => {
      const { user, products, catalogueId } = await catalogue('Failing');
      // Every write of a product with the file's description fails: only the applied batches'.
      await sql`create trigger fail_reimport before update on products
        when new.description = 'A re-imported lamp'
        begin select raise(abort, 'disk I/O error'); end`.execute(db);
      try {
        const res = await importCsv(server, user, reimportCsv(products, { creates: 20 }));
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ created: 20, updated: ROWS });
      } finally {
        await sql`drop trigger fail_reimport`.execute(db);
      }
      // Committed: its new products are there, its updates left to the sweep.
      const created = await db
        .selectFrom('products')
        .select('id')
        .where('catalogue_id', '=', catalogueId)
        .where('name', 'like', 'Created %')
        .execute();
      expect(created.length).toBe(20);
      expect(await leftOver()).toEqual({ pending: 0, updates: ROWS, applying: 1 });
      server.clock.advance(61_000);
      await sweep();
      expect(await leftOver()).toEqual({ pending: 0, updates: 0, applying: 0 });
      const stocks = await stocksOf(catalogueId);
      for (const p of products) expect(stocks.get(p.id), p.id).toBe(p.stock + 3);
      await movementsChain(catalogueId);
      await keptEqualsCounted(catalogueId);
    },
    60_000,
  );

  it.runIf(sqlite)(
    'counts in its answer and live event the products it wrote, not one deleted before its apply',
    async () => {
      const { user, products, catalogueId } = await catalogue('Deleted');
      // The last product by id: applied in the last batch, long after the commit.
      const gone = products.at(-1)!;
      // Under a key, whose stored answer must be the one given, not the one of the commit.
      const form = await csvForm(reimportCsv(products, { creates: 3_000 }));
      const send = () =>
        server.app.inject({
          method: 'POST',
          url: '/api/products/import',
          headers: { ...user.headers, ...form.headers, 'idempotency-key': 'deleted-meanwhile' },
          payload: form.body,
        });
      const importing = send();
      await unansweredUntil(importing, async () => (await staging()) > 0);
      const deleted = await deleteProduct(server, user, gone.id);
      expect(deleted.statusCode, deleted.body).toBe(200);
      const res = await importing;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ created: 3_000, updated: ROWS - 1 });
      const events = await db
        .selectFrom('live_events')
        .select('data')
        .where('catalogue_id', '=', catalogueId)
        .where('kind', '=', 'import.done')
        .orderBy('id', 'desc')
        .limit(1)
        .execute();
      expect(JSON.parse(events[0]!.data)).toMatchObject({ created: 3_000, updated: ROWS - 1 });
      expect(await leftOver()).toEqual({ pending: 0, updates: 0, applying: 0 });
      const again = await send();
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(res.json());
      await movementsChain(catalogueId);
      await keptEqualsCounted(catalogueId);
    },
    120_000,
  );

  /** The re-import's updates as the import route makes them (all but the SKU, kept). */
  const updatesOf = (products: { id: string; name: string; stock: number }[], at: number) =>
    products.map((p, i): ImportedUpdate => ({
      id: p.id,
      product: {
        name: p.name,
        description: 'A re-imported lamp',
        priceCents: ((i % 50) + 1) * 100 + 25,
        stock: p.stock + 3,
        tags: ['new', 'shelf'],
      },
      at,
    }));

  /** The re-import's updates staged, as by a process that has not committed it yet. */
  async function stageUpdates(
    catalogueId: string,
    products: { id: string; name: string; stock: number }[],
    at: number,
  ) {
    const clock = { now: () => server.clock.now(), isGone: () => false };
    const target = { id: catalogueId, actorId: null };
    return { staged: await stageImport(db, target, [], clock, updatesOf(products, at)), target };
  }

  it.runIf(sqlite)(
    'is swept away whole when its process dies before its commit',
    async () => {
      const { products, catalogueId } = await catalogue('Died early');
      const before = await snapshot(catalogueId);
      await stageUpdates(catalogueId, products, server.clock.now());
      expect((await leftOver()).updates).toBe(ROWS);
      // Its process died: the lease runs out and the sweep takes what it staged.
      server.clock.advance(61_000);
      await sweep();
      expect(await leftOver()).toEqual({ pending: 0, updates: 0, applying: 0 });
      expect(await snapshot(catalogueId)).toEqual(before);
    },
    60_000,
  );

  it.runIf(sqlite)(
    'is finished by the sweep when its process dies after its commit',
    async () => {
      const { products, catalogueId } = await catalogue('Died late');
      const now = server.clock.now();
      const { staged, target } = await stageUpdates(catalogueId, products, now);
      await writeCatalogue(server.database, target, now, async (w) => {
        await publishImport(w, staged);
        return { answer: { status: 200, body: {} } };
      });
      // Dies in its fourth applied batch: three applied, the fourth rolled back.
      let calls = 0;
      const dying = {
        now: () => {
          calls += 1;
          if (calls === 4) throw new Error('The process died');
          return server.clock.now();
        },
      };
      await expect(
        applyStagedUpdates(db, staged.id, dying, ({ applied }) => ({
          created: 0,
          updated: applied,
        })),
      ).rejects.toThrow('The process died');
      const left = await leftOver();
      expect(left.applying).toBe(1);
      expect(left.updates).toBeGreaterThan(0);
      expect(left.updates).toBeLessThan(ROWS);
      await keptEqualsCounted(catalogueId);
      // A live lease: the sweep leaves it to its applier.
      await sweep();
      expect((await leftOver()).updates).toBe(left.updates);
      server.clock.advance(61_000);
      await sweep();
      expect(await leftOver()).toEqual({ pending: 0, updates: 0, applying: 0 });
      const after = new Map(
        (
          await db
            .selectFrom('products')
            .select(['id', 'stock', 'description', 'tags'])
            .where('catalogue_id', '=', catalogueId)
            .execute()
        ).map((p) => [p.id, p]),
      );
      for (const p of products) {
        expect(after.get(p.id)).toEqual({
          id: p.id,
          stock: p.stock + 3,
          description: 'A re-imported lamp',
          tags: JSON.stringify(['new', 'shelf']),
        });
      }
      const imported = await db
        .selectFrom('stock_movements')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('catalogue_id', '=', catalogueId)
        .where('old_stock', '!=', 0)
        .executeTakeFirstOrThrow();
      // One movement per product whose stock was not 0 before (one from 0 is a creation's too).
      expect(Number(imported.n)).toBe(products.filter((p) => p.stock !== 0).length);
      await movementsChain(catalogueId);
      await keptEqualsCounted(catalogueId);
    },
    60_000,
  );
});
