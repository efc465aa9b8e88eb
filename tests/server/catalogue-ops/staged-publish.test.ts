import { beforeAll, describe, expect, it } from 'vitest';
import { stageProducts } from '../../../src/server/features/products/import-writes.js';
import { publishImport, stageImport } from '../../../src/server/features/products/index.js';
import { writeCatalogue } from '../../../src/server/features/writes/index.js';
import { member } from '../catalogues/support.js';
import { build, type TestServer } from '../support/build.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import { addWebhook } from '../webhooks/support.js';

/** New products over several staged batches. */
const ROWS = 450;
const DAY_MS = 86_400_000;
const sqlite = !process.env.TEST_DATABASE_URL;

/** Stocks around the reorder points and the low and out parts; some with a point of their own. */
const newProducts = () =>
  Array.from({ length: ROWS }, (_, i) => ({
    name: `Lamp ${i}`,
    description: 'A staged lamp',
    priceCents: 100 + i,
    costCents: i % 3 === 0 ? null : 40 + i,
    stock: i % 17,
    reorderPoint: i % 5 === 0 ? 2 : null,
    image: null,
    createdAt: Date.UTC(2026, 10, 1 + (i % 4), 12),
  }));

/**
 * A staged import (SQLite) is published in one short transaction that holds the write lock: what
 * its products add to the kept totals, days and units, and the reorder crossings it announces,
 * are summed as its batches are staged, so the publish walks none of its rows, unless the
 * catalogue's reorder point moved meanwhile, when it judges them again by the new one.
 */
describe.runIf(sqlite)("a staged import's publish", () => {
  let server: TestServer;
  let db: TestServer['database']['db'];
  // In a hook: a suite skipped on this engine still runs its body, but none of its hooks.
  beforeAll(async () => {
    server = await build();
    db = server.database.db;
  });

  async function staged(name: string) {
    const owner = await member(server, name);
    await addWebhook(server, owner, owner.id, 'https://hooks.example.com/reorder', [
      'reorder.reached',
    ]);
    const target = { id: owner.id, actorId: null };
    const clock = { now: () => server.clock.now(), isGone: () => false };
    const batches = await stageProducts('sqlite', target, newProducts());
    expect(batches.length).toBeGreaterThan(1);
    return { target, import: await stageImport(db, target, batches, clock) };
  }

  const publish = (
    target: { id: string; actorId: null },
    staged: Parameters<typeof publishImport>[1],
  ) =>
    writeCatalogue(server.database, target, server.clock.now(), async (w) => ({
      answer: { status: 200, body: { created: await publishImport(w, staged) } },
    }));

  /** What the publish must have added, counted again from its products. */
  async function expectPublished(catalogueId: string, point: number) {
    expect(await keptTotals(db, catalogueId)).toEqual(await recountTotals(db, catalogueId));
    const days = await db
      .selectFrom('catalogue_days')
      .select(['day', 'units'])
      .where('catalogue_id', '=', catalogueId)
      .orderBy('day')
      .execute();
    const products = newProducts();
    const unitsOn = (day: number) =>
      products
        .filter((p) => Math.floor(p.createdAt / DAY_MS) === day)
        .reduce((units, p) => units + p.stock, 0);
    expect(days.map((row) => Number(row.units))).toEqual(
      days.map((row) => unitsOn(Number(row.day))),
    );
    expect(days).toHaveLength(4);
    const announced = await db
      .selectFrom('webhook_deliveries')
      .select('payload')
      .where('catalogue_id', '=', catalogueId)
      .where('event_type', '=', 'reorder.reached')
      .execute();
    const crossing = products.filter((p) => p.stock <= (p.reorderPoint ?? point));
    expect(announced.map((row) => JSON.parse(row.payload).data.product.name).sort()).toEqual(
      crossing.map((p) => p.name).sort(),
    );
  }

  it('walks none of its rows: it writes what was summed as they were staged', async () => {
    const { target, import: pending } = await staged('Pat');
    // Whatever reads the staged rows now fails the publish.
    const rows = pending.rows;
    pending.rows = new Proxy(rows, {
      get: () => {
        throw new Error('The publish read its staged rows again');
      },
    });
    const published = await publish(target, pending);
    expect(published.answer.body).toEqual({ created: ROWS });
    await expectPublished(target.id, 10);
  });

  it("judges its rows again by the catalogue's reorder point if it moved meanwhile", async () => {
    const { target, import: pending } = await staged('Quin');
    await db
      .updateTable('catalogues')
      .set({ reorder_point: 4 })
      .where('id', '=', target.id)
      .execute();
    const published = await publish(target, pending);
    expect(published.answer.body).toEqual({ created: ROWS });
    await expectPublished(target.id, 4);
  });
});
