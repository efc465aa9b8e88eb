import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { seedReportCatalogue } from '../support/report-seed.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import { person } from '../catalogues/catalogue-world.js';
import { deadStock, readRaw, stockOverTime, toReorder, topMovers } from './recompute.js';

/**
 * The reports of a catalogue of 10,000 products and 200,000 movements, inserted directly, against
 * a plain TypeScript recomputation from the raw rows: the raw sums, the day boundaries and the
 * exact money hold at size (a project of its own, run once: seeding takes seconds).
 */
describe('stock reports of a large catalogue', async () => {
  const server = await build();
  const owner = await person(server, 'Large catalogue');
  const seeded = await seedReportCatalogue(server.database, owner.id, server.clock.now());
  const raw = await readRaw(server.database.db, owner.id);
  const now = server.clock.now();

  const json = async (url: string) => {
    const res = await server.app.inject({ method: 'GET', url, headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as unknown;
  };

  it('seeds what it says', () => {
    expect(seeded).toEqual({ products: 10_000, movements: 200_000 });
    expect(raw.movements).toHaveLength(200_000);
  });

  // The benchmarks' catalogues are seeded so: the summary's kept totals must be a write's.
  it('keeps the totals a count of its products gives', async () => {
    const { db } = server.database;
    expect(await keptTotals(db, owner.id)).toEqual(await recountTotals(db, owner.id));
  });

  // As every write marks them: the list filtered to reorder reads the marks.
  it('marks the products to reorder', async () => {
    const marked = await server.database.db
      .selectFrom('products')
      .select('id')
      .where('catalogue_id', '=', owner.id)
      .where('reorder_crossed_at', 'is not', null)
      .execute();
    const due = toReorder(raw).products.map((product) => product.id);
    expect(due.length).toBeGreaterThan(100);
    expect(marked.map((row) => row.id).sort()).toEqual(due.sort());
  });

  // Minutes rather than seconds on a busy machine: the recomputation walks 200,000 rows per day.
  it('agrees with the recomputation, figure for figure', { timeout: 180_000 }, async () => {
    for (const days of [30, 90, 365]) {
      expect(await json(`/api/products/reports/stock-over-time?days=${days}`)).toEqual(
        stockOverTime(raw, now, days),
      );
      expect(await json(`/api/products/reports/top-movers?days=${days}&limit=100`)).toEqual(
        topMovers(raw, now, days, 100),
      );
    }
    const dead = deadStock(raw, now);
    expect(dead.products.length).toBeGreaterThan(100);
    expect(await json('/api/products/reports/dead-stock?limit=1000')).toEqual(
      deadStock(raw, now, 1000),
    );
    const reorder = toReorder(raw);
    expect(reorder.products.length).toBeGreaterThan(100);
    expect(await json('/api/products/reports/to-reorder?limit=1000')).toEqual(toReorder(raw, 1000));
    const csv = await server.app.inject({
      method: 'GET',
      url: '/api/products/reports/dead-stock.csv',
      headers: owner.headers,
    });
    expect(csv.body.trimEnd().split('\r\n')).toHaveLength(dead.products.length + 1);
  });
});
