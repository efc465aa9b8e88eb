import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import { allProducts, createProduct } from '../support/products.js';
import { tableReads } from '../support/statement-plans.js';

/** Staged rows an import leaves, more than one of the sweep's transactions holds. */
const STAGED = 250;

/**
 * An import whose process died leaves products staged under its pending row, invisible and
 * counted nowhere, with a lease that runs out. The runner's sweep deletes them, everything that
 * goes with them and then the pending row, and nothing visible changes; an import whose lease is
 * live is left alone. The staged rows are written here as a staging transaction would write them
 * (the pending row first, then the products naming it, so no trigger counts them).
 */
describe('the sweep of failed imports', async () => {
  const server = await build();
  const owner = await signIn(server);
  const db = server.database.db;
  const visible = await createProduct(server, owner, { name: 'Visible lamp', stock: '4' });
  const template = await db
    .selectFrom('products')
    .selectAll()
    .where('id', '=', visible.id)
    .executeTakeFirstOrThrow();
  const catalogueId = template.catalogue_id;
  const { location_id: locationId } = await db
    .selectFrom('stock_levels')
    .select('location_id')
    .where('product_id', '=', visible.id)
    .executeTakeFirstOrThrow();

  /** An import's pending row and `count` products staged under it, each with a tag, a movement and stock. */
  async function stage(leaseUntil: number, count: number) {
    const importId = randomUUID();
    const now = server.clock.now();
    await db
      .insertInto('pending_imports')
      .values({ id: importId, catalogue_id: catalogueId, lease_until: leaseUntil, created_at: now })
      .execute();
    const ids = Array.from({ length: count }, () => randomUUID());
    const { id: _id, ...fields } = template;
    await db
      .insertInto('products')
      .values(
        ids.map((id, i) => ({
          ...fields,
          id,
          name: `Staged lamp ${i}`,
          sku: null,
          sku_key: null,
          barcode: null,
          barcode_key: null,
          import_id: importId,
        })),
      )
      .execute();
    await db
      .insertInto('product_tags')
      .values(ids.map((id) => ({ product_id: id, catalogue_id: catalogueId, tag_key: 'staged' })))
      .execute();
    await db
      .insertInto('stock_movements')
      .values(
        ids.map((id) => ({
          product_id: id,
          catalogue_id: catalogueId,
          created_at: now,
          old_stock: 0,
          new_stock: 4,
          delta: 4,
          source: 'import' as const,
          note: null,
        })),
      )
      .execute();
    await db
      .insertInto('stock_levels')
      .values(
        ids.map((id) => ({
          product_id: id,
          location_id: locationId,
          catalogue_id: catalogueId,
          quantity: 4,
        })),
      )
      .execute();
    return { importId, ids };
  }

  /** How many rows of these products each table holds. */
  async function rowsOf(ids: string[]) {
    const count = async (table: 'products' | 'product_tags' | 'stock_levels' | 'product_days') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where(table === 'products' ? 'id' : 'product_id', 'in', ids)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const movements = await db
      .selectFrom('stock_movements')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('product_id', 'in', ids)
      .executeTakeFirstOrThrow();
    return {
      products: await count('products'),
      tags: await count('product_tags'),
      movements: Number(movements.n),
      levels: await count('stock_levels'),
      days: await count('product_days'),
    };
  }

  const sweep = () => server.app.runner.runNow('sweeping failed imports');
  const pendingIds = async () =>
    (await db.selectFrom('pending_imports').select('id').orderBy('id').execute()).map((r) => r.id);

  it('deletes the products of an import whose lease ran out, then its pending row', async () => {
    const totals = await keptTotals(db, catalogueId);
    const failed = await stage(server.clock.now() + 30_000, STAGED);
    const live = await stage(server.clock.now() + 10 * 60_000, 3);
    expect(await rowsOf(failed.ids)).toEqual({
      products: STAGED,
      tags: STAGED,
      movements: STAGED,
      levels: STAGED,
      days: STAGED,
    });
    // Not yet run out: both stay.
    await sweep();
    expect(await pendingIds()).toEqual([failed.importId, live.importId].sort());
    expect((await rowsOf(failed.ids)).products).toBe(STAGED);

    server.clock.advance(60_000);
    await sweep();
    expect(await rowsOf(failed.ids)).toEqual({
      products: 0,
      tags: 0,
      movements: 0,
      levels: 0,
      days: 0,
    });
    expect(await pendingIds()).toEqual([live.importId]);
    // The live import's rows stay staged: invisible, and counted nowhere.
    expect((await rowsOf(live.ids)).products).toBe(3);
    expect((await allProducts(server, owner)).map((p) => p.name)).toEqual(['Visible lamp']);
    expect(await keptTotals(db, catalogueId)).toEqual(totals);
    expect(await keptTotals(db, catalogueId)).toEqual(await recountTotals(db, catalogueId));
  });

  // A catalogue's deletion cascades into the updates its imports staged: by an index, not a scan
  // of every catalogue's (a re-import stages up to 50,000 rows).
  it("finds a catalogue's staged updates by its index", async () => {
    const { dialect } = server.database;
    const statement = db.deleteFrom('import_updates').where('catalogue_id', '=', catalogueId);
    const reads = await db.transaction().execute(async (trx) => {
      // Its planner would scan a table this small anyway.
      if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      return tableReads(trx, dialect, statement.compile(), new Set(['import_updates']));
    });
    expect(reads.map(({ table, reach }) => ({ table, reach }))).toEqual([
      { table: 'import_updates', reach: 'catalogue' },
    ]);
  });
});
