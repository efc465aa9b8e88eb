import type { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PRODUCT_SORTS } from '../../../src/shared/constants.js';
import type { Position } from '../../../src/server/features/products/cursor.js';
import { ProductQueries } from '../../../src/server/features/products/queries.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import { build } from '../support/build.js';
import {
  analyzeProducts,
  numberedCatalogue,
  planText,
  rowsRead,
} from '../support/statement-plans.js';

/**
 * `stock=reorder` compares each row with its own point or its catalogue's. A page of the list reads
 * the products marked to reorder from the partial index of its order, that page and no more, never
 * the whole table, and the summary (and its `toReorder` count) reads the stock index alone.
 */
describe('reorder query plans', async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const repository = new ProductRepository(db, dialect);
  const queries = new ProductQueries(db, dialect);
  const owners = [];
  for (const name of ['a', 'b']) {
    owners.push(
      await numberedCatalogue(server.database, `reorder-${name}@example.com`, 3000, (i) => ({
        stock: i % 40,
        reorderPoint: i % 5 === 0 ? 30 : null,
      })),
    );
  }
  await analyzeProducts(db, dialect);
  const owner = owners[0]!;
  const plan = (query: CompiledQuery) => planText(db, dialect, query);

  // A third of the catalogue is due (over a thousand products): a page in any order reads its own
  // rows in that order from an index of the products to reorder and stops, sorting none of them.
  // SQLite is told the index; PostgreSQL chooses by its statistics.
  it.each(PRODUCT_SORTS)('the list sorted by %s reads a page, not all due', async (sort) => {
    const limit = 50;
    const query = queries.listQuery(owner, { sort, limit, stock: 'reorder' }).compile();
    if (dialect === 'sqlite') {
      const text = await plan(query);
      expect(text, sort).toMatch(/products_reorder_by_\w+/);
      expect(text, sort).not.toMatch(/products_owner_\w+|TEMP B-TREE/);
      expect(text).not.toMatch(/SCAN products(?! USING)/i);
    } else {
      // The rows its scans of products read (returned, or read and filtered out), every loop's.
      const read = await rowsRead(db, dialect, query, 'products');
      expect(read.sorts, sort).toBe(false);
      expect(read.rows, sort).toBeLessThanOrEqual(limit + 1);
    }
  });

  it.each(PRODUCT_SORTS)('pages through the products to reorder sorted by %s', async (sort) => {
    const due = await repository.summary(owner, { stock: 'reorder' });
    const seen: string[] = [];
    let after: Position | undefined;
    for (;;) {
      const rows = await queries
        .listQuery(owner, { sort, limit: 400, stock: 'reorder', after })
        .execute();
      const page = rows.slice(0, 400);
      seen.push(...page.map((row) => row.id));
      if (rows.length <= 400) break;
      const last = page.at(-1)!;
      after = { key: last.sort_key as string | number, id: last.id };
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(due.count);
  });

  // PostgreSQL sums half of this table by reading it whole, its choice by cost (as before the
  // count was added); SQLite, which has no statistics in the app, must be told by the index.
  it.runIf(dialect === 'sqlite')(
    'the summary reads the stock index alone, with or without the filter',
    async () => {
      for (const stock of [undefined, 'reorder'] as const) {
        const text = await plan(queries.summaryQuery(owner, { stock }).compile());
        expect(text, String(stock)).toContain('USING COVERING INDEX products_owner_stock');
      }
    },
  );

  it('counts with the product points', async () => {
    const summary = await repository.summary(owner, {});
    // Stocks 0–39, 75 of each: to reorder at 10 or below (11 values), or at 30 or below (31) for
    // the fifth with a point of their own.
    const expected = Array.from({ length: 3000 }, (_, i) =>
      i % 40 <= (i % 5 === 0 ? 30 : 10) ? 1 : 0,
    ).reduce<number>((a, b) => a + b, 0);
    expect(summary.toReorder).toBe(expected);
    const listed = await repository.summary(owner, { stock: 'reorder' });
    expect(listed.count).toBe(expected);
  });
});
