import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { visibleProduct } from '../../../src/server/infra/db/visible-products.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import { createProduct, csvText, importCsv, listProducts } from '../support/products.js';

/** Rows of an import: staged over a few seconds, long enough to act while it stages. */
const ROWS = 3_000;

const rowsOf = (prefix: string, code: string) => [
  ['name', 'price', 'stock', 'description', 'sku', 'cost'],
  ...Array.from({ length: ROWS }, (_, i) => [
    `${prefix} ${i}`,
    '2.50',
    String(i % 20),
    'A lamp',
    `${code}-${i}`,
    i % 3 === 0 ? '' : `1.${i % 100}`,
  ]),
];

/**
 * An import's new products, written in short transactions on SQLite before one short transaction
 * publishes them (on PostgreSQL, in the one transaction as before): either way no read sees a row
 * before the import's answer, and a failed import leaves nothing behind, its totals untouched.
 */
describe('an import staged, then published or dropped', async () => {
  const server = await build();
  const owner = await signIn(server);
  const db = server.database.db;
  const first = await createProduct(server, owner, { name: 'Lamp there first', stock: '3' });
  const { catalogue_id: catalogueId } = await db
    .selectFrom('products')
    .select('catalogue_id')
    .where('id', '=', first.id)
    .executeTakeFirstOrThrow();

  const listed = async () => {
    const res = await listProducts(server, owner, 'limit=100');
    return (res.json() as { total: number; products: unknown[] }).products.length;
  };
  const staged = async () =>
    Number(
      (
        await db
          .selectFrom('products')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('import_id', 'in', db.selectFrom('pending_imports').select('id'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** The default location's kept units against its stock levels' sum. */
  const units = async () => {
    const { rows } = await sql<{ kept: number; levels: number }>`select
        (select units from locations where id = ${catalogueId}) as kept,
        (select coalesce(sum(quantity), 0) from stock_levels where location_id = ${catalogueId}) as levels`.execute(
      db,
    );
    return { kept: Number(rows[0]!.kept), levels: Number(rows[0]!.levels) };
  };

  /** The catalogue's kept days against its visible products' movements, added up again. */
  const days = async () => {
    const kept = await sql<{ units: number; value: string }>`select sum(units) as units,
        cast(sum(value_low) + sum(value_middle) * 65536 + sum(value_high) * 4294967296 as text) as value
      from catalogue_days where catalogue_id = ${catalogueId}`.execute(db);
    const counted = await sql<{ units: number; value: string }>`select sum(m.delta) as units,
        cast(sum(p.price_cents * m.delta) as text) as value
      from stock_movements m join products p on p.id = m.product_id
      where m.catalogue_id = ${catalogueId} and ${visibleProduct('p')}`.execute(db);
    return { kept: kept.rows[0], counted: counted.rows[0] };
  };

  it('shows no staged row while it writes, then every row at once', async () => {
    const importing = importCsv(server, owner, csvText(rowsOf('Published lamp', 'PL')));
    let seen = 0;
    let afterCommit = 0;
    let done = false;
    void importing.finally(() => (done = true));
    while (!done) {
      // Never a staged row: the list holds the first product alone until the import commits,
      // then a full page of it, never a part.
      const shown = await listed();
      expect(afterCommit > 0 ? [100] : [1, 100]).toContain(shown);
      if (shown === 1) seen += 1;
      else afterCommit += 1;
      await sleep(20);
    }
    const res = await importing;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: ROWS, updated: 0 });
    expect(seen).toBeGreaterThan(1);
    // A read may fall between the commit and the answer (a turn or two); staged rows seen would
    // fill the list for the seconds the staging takes.
    expect(afterCommit).toBeLessThanOrEqual(2);
    expect(await listed()).toBe(100);
    expect(await keptTotals(db, catalogueId)).toEqual(await recountTotals(db, catalogueId));
    const { kept, levels } = await units();
    expect(kept).toBe(levels);
    const { kept: keptDays, counted } = await days();
    expect(String(keptDays!.units)).toBe(String(counted!.units));
    expect(String(keptDays!.value)).toBe(String(counted!.value));
    expect(await db.selectFrom('pending_imports').selectAll().execute()).toEqual([]);
  }, 120_000);

  // Staging is SQLite's: on PostgreSQL the import is one transaction, its conflicts as before.
  it.runIf(!process.env.TEST_DATABASE_URL)(
    'drops what it staged when a code is taken meanwhile: the usual 409',
    async () => {
      const before = await keptTotals(db, catalogueId);
      const beforeUnits = await units();
      const importing = importCsv(server, owner, csvText(rowsOf('Conflicting lamp', 'CL')));
      // The last row's code, taken by another product once the first rows are staged.
      let answered = false;
      void importing.finally(() => (answered = true));
      while ((await staged()) === 0 && !answered) await sleep(5);
      await createProduct(server, owner, {
        name: 'Rival lamp',
        stock: '1',
        sku: `CL-${ROWS - 1}`,
      });
      const res = await importing;
      expect(res.statusCode, res.body).toBe(409);
      expect(await staged()).toBe(0);
      expect(await db.selectFrom('pending_imports').selectAll().execute()).toEqual([]);
      const after = await keptTotals(db, catalogueId);
      expect(after).toEqual(await recountTotals(db, catalogueId));
      expect(after.all!.count).toBe(before.all!.count + 1);
      const { kept, levels } = await units();
      expect(kept).toBe(levels);
      expect(kept).toBe(beforeUnits.kept + 1);
      const { kept: keptDays, counted } = await days();
      expect(String(keptDays!.units)).toBe(String(counted!.units));
    },
    120_000,
  );

  it.runIf(!process.env.TEST_DATABASE_URL)(
    'gives up with a 503 when it stalls past its lease, and leaves nothing behind',
    async () => {
      const before = await keptTotals(db, catalogueId);
      const importing = importCsv(server, owner, csvText(rowsOf('Stalled lamp', 'SL')));
      let answered = false;
      void importing.finally(() => (answered = true));
      while ((await staged()) === 0 && !answered) await sleep(5);
      // A minute and more between two batches: the sweep may take what it staged.
      server.clock.advance(61_000);
      const res = await importing;
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.json()).toMatchObject({
        message: expect.stringContaining('nothing of it was kept'),
      });
      expect(await staged()).toBe(0);
      expect(await db.selectFrom('pending_imports').selectAll().execute()).toEqual([]);
      expect(await keptTotals(db, catalogueId)).toEqual(before);
    },
    120_000,
  );

  it("numbers its new products in the order of their stock, then the file's", async () => {
    const res = await importCsv(server, owner, csvText(rowsOf('Ordered lamp', 'OL')));
    expect(res.statusCode, res.body).toBe(200);
    const rows = await db
      .selectFrom('products')
      .select(['id', 'stock', 'name'])
      .where('catalogue_id', '=', catalogueId)
      .where('name', 'like', 'Ordered lamp %')
      .execute();
    expect(rows.length).toBe(ROWS);
    // By id, the rows of each first character come by stock, then as the file lists them:
    // neighbours in the indexes, in runs spread over the 16 ranges a location's summary sums.
    const line = (name: string) => Number(name.split(' ').at(-1));
    const byStock = [...rows].sort((a, b) => a.stock - b.stock || line(a.name) - line(b.name));
    const ranges = new Set(rows.map((row) => row.id[0]));
    expect(ranges.size).toBe(16);
    for (const range of ranges) {
      const inRange = (row: { id: string }) => row.id[0] === range;
      const byId = rows.filter(inRange).sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(byId.map((row) => row.id)).toEqual(byStock.filter(inRange).map((row) => row.id));
    }
    // Each a UUID of version 8's layout.
    for (const { id } of rows)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
  }, 120_000);

  // The batches commit unsynced; every other write commits synced as before.
  it.runIf(!process.env.TEST_DATABASE_URL)(
    "leaves the writer's commits synced once it is done",
    async () => {
      const res = await importCsv(server, owner, csvText(rowsOf('Synced lamp', 'SY')));
      expect(res.statusCode, res.body).toBe(200);
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      // 2: full.
      expect(rows[0]!.synchronous).toBe(2);
    },
    120_000,
  );
});
