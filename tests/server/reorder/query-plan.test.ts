import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PRODUCT_SORTS } from '../../../src/shared/constants.js';
import { insertUser } from '../../../src/server/features/accounts/users.js';
import { ProductQueries } from '../../../src/server/features/products/queries.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { build } from '../support/build.js';

/**
 * `stock=reorder` compares each row with its own point or its catalogue's. The list reads the
 * rule's two parts from the partial indexes that hold them (the products to reorder, then sorted),
 * never the whole table, and the summary (and its `toReorder` count) reads the stock index alone.
 */
describe('reorder query plans', async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const repository = new ProductRepository(db, dialect);
  const queries = new ProductQueries(db, dialect);
  const owners = [];
  for (const name of ['a', 'b']) {
    owners.push(
      await insertUser(db, { name, email: `reorder-${name}@example.com`, passwordHash: 'x' }, 0),
    );
  }
  for (const id of owners) {
    await bulkLoad(
      { db, dialect },
      id,
      Array.from({ length: 3000 }, (_, i) => ({
        name: `Product ${i}`,
        description: 'Plain',
        priceCents: (i % 700) + 1,
        stock: i % 40,
        image: null,
        createdAt: i,
        reorderPoint: i % 5 === 0 ? 30 : null,
      })),
    );
  }
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze products' : 'analyze').execute(db);
  const owner = owners[0]!;

  // Every read of products reads the pending imports, a handful of rows, once per statement
  // (visible-products.ts): a scan of that table is no scan of a catalogue.
  async function plan(query: CompiledQuery): Promise<string> {
    const explain = dialect === 'postgres' ? 'explain' : 'explain query plan';
    const result = await db.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]),
    );
    return result.rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
  }

  // SQLite is told the indexes; PostgreSQL chooses by its statistics, an index of the catalogue at
  // this size.
  it.each(PRODUCT_SORTS)('the list sorted by %s reads the indexes to reorder', async (sort) => {
    const text = await plan(
      queries.listQuery(owner, { sort, limit: 50, stock: 'reorder' }).compile(),
    );
    if (dialect === 'sqlite') {
      expect(text, sort).toMatch(/products_reorder_own_order/);
      expect(text, sort).toMatch(/products_reorder_default_order/);
      expect(text, sort).not.toMatch(/products_owner_\w+/);
    } else {
      expect(text, sort).toMatch(/products_reorder_own_order/);
    }
    expect(text).not.toMatch(/Seq Scan on (?!pending_imports)|SCAN products(?! USING)/i);
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
