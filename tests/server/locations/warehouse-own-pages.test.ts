import type { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PRODUCT_SORTS } from '../../../src/shared/constants.js';
import { ProductQueries } from '../../../src/server/features/products/queries.js';
import { build } from '../support/build.js';
import {
  analyze,
  numberedCatalogue,
  planText,
  rowsRead,
  stockedWarehouse,
} from '../support/statement-plans.js';

/**
 * A list of what many locations hold (an aisle, a warehouse) seeks each location's stock rows.
 * In the locations' index every seek lands on a page of its own among the other tenants' rows,
 * so the pages a warehouse's list reads grow with them; in the index led by the catalogue
 * (migration 054) the seeks stay within the catalogue's own few pages. Both statements of the
 * list ask it: the count that chooses how to read the list, and the gather.
 */
describe('a list of many locations reads the catalogue’s own stock pages', async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const queries = new ProductQueries(db, dialect);
  const seed = async (name: string, count: number, places: number) => {
    const catalogueId = await numberedCatalogue(server.database, `${name}-own@example.com`, count);
    const steps = Array.from({ length: places }, (_, step) => step * 7);
    return { catalogueId, ...(await stockedWarehouse(db, catalogueId, steps)) };
  };
  await seed('big', 2_000, 25);
  const small = await seed('small', 300, 3);
  await analyze(db, dialect);

  const plan = (query: CompiledQuery) => planText(db, dialect, query);
  const subtree = async (id: string) =>
    (await server.app.locations.subtree(small.catalogueId, id))!;
  /** The catalogue's own stock rows: no statement of its lists may read more of the table. */
  const own = Number(
    (
      await db
        .selectFrom('stock_levels')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('catalogue_id', '=', small.catalogueId)
        .executeTakeFirstOrThrow()
    ).n,
  );

  it.each(['the warehouse', 'an aisle'])(
    'counts what %s holds from the catalogue’s index',
    async (place) => {
      const locationIds = await subtree(place === 'an aisle' ? small.aisles[2]! : small.warehouse);
      for (const max of [51, 2001, 8001]) {
        const query = queries.heldRowsQuery(small.catalogueId, locationIds, max).compile(db);
        expect(await plan(query), `${max}`).toContain('stock_levels_catalogue_location');
        const read = await rowsRead(db, dialect, query, 'stock_levels');
        expect(read.rows, `${max}`).toBeLessThanOrEqual(own);
      }
    },
  );

  it.each(PRODUCT_SORTS)(
    'sort=%s: gathers what a warehouse holds from the catalogue’s index (SQLite)',
    async (sort) => {
      const locationIds = await subtree(small.warehouse);
      const held = { locationIds, gather: true };
      for (const options of [{}, { stock: 'low' as const }, { tag: 't-1' }]) {
        const query = queries.pageQuery(small.catalogueId, sort, {
          text: '',
          held,
          rows: 51,
          ...options,
        });
        const text = await plan(query.compile());
        const read = await rowsRead(db, dialect, query.compile(), 'stock_levels');
        expect(read.rows, JSON.stringify(options)).toBeLessThanOrEqual(own);
        // PostgreSQL chooses by its statistics: it may walk the sort's index and ask each
        // product's own stock rows by its key. SQLite, without statistics, gathers.
        if (dialect === 'sqlite') {
          expect(text, JSON.stringify(options)).toMatch(
            /SEARCH stock_levels USING COVERING INDEX stock_levels_catalogue_location \(catalogue_id=\? AND location_id=\?\)/,
          );
          expect(text, JSON.stringify(options)).not.toMatch(
            /stock_levels_location|products_owner_/,
          );
        }
      }
    },
  );
});
