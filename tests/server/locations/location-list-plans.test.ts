import type { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PRODUCT_SORTS, STOCK_FILTERS } from '../../../src/shared/constants.js';
import { SORT_ORDERS } from '../../../src/server/features/products/cursor.js';
import { heldSummaryQuery } from '../../../src/server/features/products/held-summary.js';
import { ProductQueries } from '../../../src/server/features/products/queries.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import { build } from '../support/build.js';
import {
  analyze,
  numberedCatalogue,
  planText,
  stockedWarehouse,
} from '../support/statement-plans.js';

/**
 * The list of what a location holds must not grow with the catalogue: a location holding few
 * stock rows is read through the locations' index and its products by id; one holding many reads
 * the sort's index in order and asks each product's own stock rows. Both give the same pages.
 */
describe('the list by location: plans and pages', async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const queries = new ProductQueries(db, dialect);
  const owners = [] as string[];
  /** A warehouse of 10 aisles of 20 bins in each catalogue; every product in 3 bins. */
  const bins = new Map<string, string[]>();
  const aisles = new Map<string, string[]>();
  const warehouses = new Map<string, string>();
  for (const name of ['a', 'b']) {
    const catalogueId = await numberedCatalogue(
      server.database,
      `${name}-plans@example.com`,
      3000,
      (i) => ({
        description: i % 4 === 0 ? 'Brass fitting' : 'Plain',
        tags: [`t-${i % 3}`],
      }),
    );
    const stocked = await stockedWarehouse(db, catalogueId, [0, 67, 131]);
    owners.push(catalogueId);
    bins.set(catalogueId, stocked.bins);
    aisles.set(catalogueId, stocked.aisles);
    warehouses.set(catalogueId, stocked.warehouse);
  }
  const owner = owners[0]!;
  await analyze(db, dialect);

  const plan = (query: CompiledQuery) => planText(db, dialect, query);
  const subtree = async (id: string) => (await server.app.locations.subtree(owner, id))!;

  it.each(PRODUCT_SORTS)(
    'sort=%s: a bin reads its stock rows by the locations’ index, its products by id',
    async (sort) => {
      const held = { locationIds: await subtree(bins.get(owner)![3]!), gather: true };
      const after = { key: SORT_ORDERS[sort].column === 'name_key' ? 'product 5' : 5, id: owner };
      for (const options of [{}, { after }, { stock: STOCK_FILTERS[0] }, { tag: 't-1' }]) {
        const query = queries.pageQuery(owner, sort, { text: '', held, rows: 51, ...options });
        const text = await plan(query.compile());
        expect(text).toContain('stock_levels_location');
        expect(text).not.toMatch(
          /Seq Scan on (?!pending_imports)|SCAN products|SCAN stock_levels/i,
        );
        // PostgreSQL may take a narrow range of a sort's index (past a cursor) and join it, by
        // its costs; SQLite, without statistics, is held to the ids.
        if (dialect === 'sqlite') expect(text).not.toMatch(/products_owner_/);
      }
    },
  );

  it.each(PRODUCT_SORTS)(
    'sort=%s: a warehouse reads the sort’s index in order, each product’s stock by its key',
    async (sort) => {
      const held = { locationIds: await subtree(warehouses.get(owner)!), gather: false };
      const query = queries.pageQuery(owner, sort, { text: '', held, rows: 51 });
      const text = await plan(query.compile());
      expect(text).toMatch(/products_owner_/);
      expect(text).not.toMatch(
        /TEMP B-TREE|Sort|Seq Scan on (?!pending_imports)|SCAN products|SCAN stock_levels/i,
      );
      expect(text).toMatch(/stock_levels_pk|sqlite_autoindex_stock_levels_1/);
    },
  );

  it.each(['a bin', 'an aisle', 'the warehouse'])(
    'the summary of %s reads its stock rows by a locations’ index, its products by id',
    async (place) => {
      const id =
        place === 'a bin'
          ? bins.get(owner)![3]!
          : place === 'an aisle'
            ? aisles.get(owner)![2]!
            : warehouses.get(owner)!;
      const locationIds = await subtree(id);
      // Here the warehouse holds half of the database's stock rows: PostgreSQL rightly reads them
      // all rather than by the index, as it would not where one catalogue holds a small share.
      if (dialect === 'postgres' && place === 'the warehouse') return;
      const range = { ids: { from: '4', to: '5' } };
      for (const options of [
        {},
        { stock: STOCK_FILTERS[0] },
        { tag: 't-1' },
        { text: 'brass' },
        range,
      ]) {
        const query = heldSummaryQuery(queries, owner, { text: '', locationIds, ...options });
        const text = await plan(query.compile());
        // PostgreSQL reads the catalogue's part of them (migration 054).
        const index =
          dialect === 'postgres' ? 'stock_levels_catalogue_location' : 'stock_levels_location';
        expect(text, JSON.stringify(options)).toContain(index);
        // The catalogue's reorder point is one row of a small table.
        expect(text, JSON.stringify(options)).not.toMatch(
          /Seq Scan on (?!pending_imports|catalogues)|SCAN products|SCAN stock_levels/i,
        );
        // PostgreSQL may read a catalogue's products and hash them when the place holds a good
        // share of them, by its costs; a bin's few it reads by id. SQLite is held to the ids.
        if (dialect === 'sqlite') expect(text).not.toMatch(/products_owner_/);
        else if (place === 'a bin') expect(text).toContain('products_pkey');
      }
    },
  );

  it('counts what a location holds from the locations’ index, no further than asked', async () => {
    const many = await subtree(warehouses.get(owner)!);
    expect(await queries.heldRows(owner, many, 100)).toBe(100);
    expect(await queries.heldRows(owner, [bins.get(owner)![0]!], 1000)).toBe(45);
  });

  it('sums the same in one statement as in ranges of product ids', async () => {
    const whole = new ProductRepository(db, dialect, undefined, 1_000_000);
    const ranged = new ProductRepository(db, dialect, undefined, 0);
    const places = [warehouses.get(owner)!, aisles.get(owner)![2]!, bins.get(owner)![7]!];
    for (const place of places) {
      const locationIds = await subtree(place);
      const levels = await db
        .selectFrom('stock_levels')
        .select(['product_id', 'quantity'])
        .where('location_id', 'in', locationIds)
        .execute();
      const summary = await ranged.summary(owner, { locationIds });
      expect(summary.count).toBe(new Set(levels.map((level) => level.product_id)).size);
      expect(summary.units).toBe(levels.reduce((sum, level) => sum + level.quantity, 0));
      for (const options of [{}, { q: 'brass' }, { tag: 't-2' }, { stock: 'low' as const }]) {
        expect(await ranged.summary(owner, { ...options, locationIds }), place).toEqual(
          await whole.summary(owner, { ...options, locationIds }),
        );
      }
    }
  });

  it('gives the same pages whichever way it reads them, and never another catalogue’s', async () => {
    // Small search limits, so that SQLite's bounded search runs its windows too.
    const limits = { windowRows: 7, candidatesMax: 5 };
    const gathering = new ProductRepository(db, dialect, limits, 1_000_000);
    const walking = new ProductRepository(db, dialect, limits, 0);
    const places = [warehouses.get(owner)!, aisles.get(owner)![2]!, bins.get(owner)![7]!];
    for (const place of places) {
      const locationIds = await subtree(place);
      const expected = await db
        .selectFrom('stock_levels')
        .select('product_id')
        .distinct()
        .where('location_id', 'in', locationIds)
        .execute();
      for (const options of [
        { sort: 'newest' as const },
        { sort: 'name' as const, q: 'brass' },
        { sort: 'price-desc' as const, tag: 't-2' },
        { sort: 'stock-asc' as const, stock: 'low' as const },
        { sort: 'oldest' as const, q: 'uct 1' },
      ]) {
        const pages = [] as string[][];
        for (const repository of [gathering, walking]) {
          const seen: string[] = [];
          let after: { key: string | number; id: string } | undefined;
          for (;;) {
            const page = await repository.list(owner, {
              ...options,
              limit: 40,
              locationIds,
              after,
            });
            seen.push(...page.rows.map((row) => row.id));
            const last = page.rows.at(-1);
            if (!page.hasMore || !last) break;
            after = { key: last.sort_key, id: last.id };
          }
          pages.push(seen);
        }
        expect(pages[1], JSON.stringify(options)).toEqual(pages[0]);
        expect(new Set(pages[0]).size).toBe(pages[0]!.length);
        const held = new Set(expected.map((row) => row.product_id));
        expect(pages[0]!.every((id) => held.has(id))).toBe(true);
        if (!('q' in options) && !('tag' in options) && !('stock' in options)) {
          expect(pages[0]!.length).toBe(held.size);
        }
      }
    }
  }, 60_000);
});
