import type { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { heldSummaryQuery } from '../../../src/server/features/products/held-summary.js';
import { ProductQueries } from '../../../src/server/features/products/queries.js';
import { build } from '../support/build.js';
import {
  analyze,
  numberedCatalogue,
  rowsRead,
  stockedWarehouse,
} from '../support/statement-plans.js';

/**
 * Another tenant's stock must change nothing in what a warehouse's summary reads: the small
 * catalogue's warehouse is summed from its own stock rows, though the other catalogue's hold many
 * more per location and so sway PostgreSQL's estimates of how many rows its locations hold.
 */
describe('a warehouse beside a larger tenant', async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const queries = new ProductQueries(db, dialect);
  const warehouses = new Map<string, string>();
  const seeded = new Map<string, Awaited<ReturnType<typeof stockedWarehouse>>>();
  async function seed(name: string, count: number, places: number) {
    const catalogueId = await numberedCatalogue(
      server.database,
      `${name}-beside@example.com`,
      count,
      () => ({ tags: [] }),
    );
    const steps = Array.from({ length: places }, (_, step) => step * 7);
    const stocked = await stockedWarehouse(db, catalogueId, steps);
    warehouses.set(catalogueId, stocked.warehouse);
    seeded.set(catalogueId, stocked);
    return catalogueId;
  }
  await seed('big', 2_000, 25);
  const small = await seed('small', 300, 3);
  await analyze(db, dialect);

  /**
   * The plan of a statement, and the stock rows it read: on PostgreSQL as it ran (every row its
   * scans of stock_levels produced or filtered out); SQLite plans without counts.
   */
  const stockRowsRead = (query: CompiledQuery) => rowsRead(db, dialect, query, 'stock_levels');

  it('sums a warehouse from its own stock rows, none of the other tenant’s', async () => {
    const locationIds = (await server.app.locations.subtree(small, warehouses.get(small)!))!;
    const own = await db
      .selectFrom('stock_levels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('catalogue_id', '=', small)
      .executeTakeFirstOrThrow();
    for (const options of [{}, { stock: 'low' as const }, { ids: { from: '4', to: '5' } }]) {
      const query = heldSummaryQuery(queries, small, { text: '', locationIds, ...options });
      const read = await stockRowsRead(query.compile());
      expect(read.plan, JSON.stringify(options)).not.toMatch(
        /Seq Scan on stock_levels|SCAN stock_levels/,
      );
      expect(read.rows, JSON.stringify(options)).toBeLessThanOrEqual(Number(own.n));
    }
  });

  it('lists a warehouse from its own stock rows, none of the other tenant’s', async () => {
    const locationIds = (await server.app.locations.subtree(small, warehouses.get(small)!))!;
    const held = { locationIds, gather: false };
    // Whether to gather the list or walk the sort's index, counted up to the limits the list and
    // the summary ask.
    for (const max of [51, 2001, 8001]) {
      const read = await stockRowsRead(queries.heldRowsQuery(small, locationIds, max).compile(db));
      expect(read.plan, `${max}`).not.toMatch(/Seq Scan on stock_levels|SCAN stock_levels/);
      expect(read.rows, `${max}`).toBeLessThanOrEqual(900);
    }
    for (const sort of ['newest', 'name', 'stock-asc'] as const) {
      const query = queries.pageQuery(small, sort, { text: '', held, rows: 51 });
      const read = await stockRowsRead(query.compile());
      expect(read.plan, sort).not.toMatch(/Seq Scan on stock_levels|SCAN stock_levels/);
      expect(read.rows, sort).toBeLessThanOrEqual(900);
    }
  });

  // Locations holding few stock rows (up to 2,000, the small warehouse too) gather what they
  // hold: their stock rows and products alone, however many of the other tenant's PostgreSQL
  // expects there.
  it('gathers a place’s list from its own rows, none of the other tenant’s', async () => {
    const { warehouse, aisles, bins } = seeded.get(small)!;
    for (const place of [warehouse, aisles[2]!, bins[7]!]) {
      const locationIds = (await server.app.locations.subtree(small, place))!;
      const held = { locationIds, gather: true };
      for (const sort of ['newest', 'name', 'stock-asc'] as const) {
        for (const options of [{}, { stock: 'low' as const }]) {
          const query = queries.pageQuery(small, sort, { text: '', held, rows: 51, ...options });
          const stock = await stockRowsRead(query.compile());
          const products = await rowsRead(db, dialect, query.compile(), 'products');
          const label = `${locationIds.length} ${sort} ${JSON.stringify(options)}`;
          expect(stock.plan, label).not.toMatch(
            /Seq Scan on (?!pending_imports)|SCAN (stock_levels|products)/,
          );
          expect(stock.rows, label).toBeLessThanOrEqual(900);
          expect(products.rows, label).toBeLessThanOrEqual(300);
        }
      }
    }
  });
});
