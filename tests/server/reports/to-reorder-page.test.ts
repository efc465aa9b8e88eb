import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { trackReorderCrossings } from '../../../src/server/features/products/index.js';
import { build } from '../support/build.js';
import { seedReportCatalogue } from '../support/report-seed.js';
import { statementRecorder } from '../support/statement-plans.js';
import { person } from '../catalogues/catalogue-world.js';
import { readRaw, toReorder } from './recompute.js';

const LIMIT = 5;

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PgNode[];
}

/** The rows a PostgreSQL plan's scans of `products` returned, over every loop. */
function productRowsRead(node: PgNode): number {
  const own =
    node['Relation Name'] === 'products' && /Scan$/.test(node['Node Type'])
      ? node['Actual Rows'] * node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + productRowsRead(child), 0);
}

/**
 * A page of the to-reorder report reads that page from each part of the rule (a product's own
 * point, the catalogue's), however many products are due: with thousands due, a page of five
 * reads at most five of each.
 */
describe('a page of the to-reorder report', async () => {
  const server = await build();
  const owner = await person(server, 'Many to reorder');
  const { db, dialect } = server.database;
  await seedReportCatalogue(server.database, owner.id, server.clock.now(), {
    products: 3_000,
    movements: 3_000,
  });
  // Most of the catalogue due by its point, and every product with a point of its own due too.
  await db
    .updateTable('catalogues')
    .set({ reorder_point: 1_000 })
    .where('id', '=', owner.id)
    .execute();
  await sql`update products set reorder_point = stock + 1 where catalogue_id = ${owner.id}
    and reorder_point is not null`.execute(db);
  // Written behind the application's back: the reorder marks brought in step, as a write would.
  await db
    .transaction()
    .execute((trx) => trackReorderCrossings(trx, owner.id, 'all', server.clock.now(), false));
  if (dialect === 'postgres') await sql`analyze`.execute(db);
  const raw = await readRaw(db, owner.id);

  const recorder = statementRecorder();
  const { result: answer, statements } = await recorder.during(() =>
    server.app.inject({
      method: 'GET',
      url: `/api/products/reports/to-reorder?limit=${LIMIT}`,
      headers: owner.headers,
    }),
  );
  recorder.restore();
  const report = statements.find((statement) => /reorder_point/.test(statement.sql))!;

  it('holds thousands due by both parts of the rule, and answers the first of them', () => {
    const due = toReorder(raw).products;
    expect(due.length).toBeGreaterThan(2_000);
    expect(due.filter((row) => row.reorderPoint === 1_000).length).toBeLessThan(due.length - 300);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual(toReorder(raw, LIMIT));
  });

  it.runIf(dialect === 'postgres')('reads a page of products from each part', async () => {
    const explained = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PgNode }] }>(
      CompiledQuery.raw(`explain (analyze, format json) ${report.sql}`, [...report.parameters]),
    );
    expect(productRowsRead(explained.rows[0]!['QUERY PLAN'][0].Plan)).toBeLessThanOrEqual(
      2 * LIMIT,
    );
  });

  // SQLite counts no rows for a plan; its plan says whether each part is read in the report's
  // order from its index (no sort of its own) or sorted whole.
  it.runIf(dialect === 'sqlite')('reads each part in order from its index', async () => {
    const explained = await db.executeQuery<{ id: number; parent: number; detail: string }>(
      CompiledQuery.raw(`explain query plan ${report.sql}`, [...report.parameters]),
    );
    const rows = explained.rows;
    const reads = rows.filter((row) => /^(SCAN|SEARCH) products/.test(row.detail));
    expect(reads.map((row) => /USING INDEX (\w+)/.exec(row.detail)?.[1]).sort()).toEqual([
      'products_reorder_default_marked',
      'products_reorder_own_order',
    ]);
    for (const read of reads) {
      const siblings = rows.filter((row) => row.parent === read.parent);
      expect(siblings.map((row) => row.detail)).not.toContainEqual(
        expect.stringMatching(/TEMP B-TREE/),
      );
    }
  });
});

/**
 * A stock change of a product above the catalogue's point, most of a catalogue's, writes no
 * entry of the index the report reads the catalogue's part from: it holds the marked products
 * only (the rule is asked of each of them).
 */
describe("the index of the to-reorder report's part by the catalogue's point", async () => {
  const server = await build();
  const owner = await person(server, 'Some to reorder');
  const { db, dialect } = server.database;
  await seedReportCatalogue(server.database, owner.id, server.clock.now(), {
    products: 600,
    movements: 600,
  });
  // Analyzed whole (a small table), a partial index's count of its tuples is exact (PostgreSQL).
  if (dialect === 'postgres') await sql`analyze products`.execute(db);

  it('holds the products marked to reorder, no others', async () => {
    const { marked, without } = await db
      .selectFrom('products')
      .select(sql<number>`count(case when reorder_crossed_at is not null then 1 end)`.as('marked'))
      .select(sql<number>`count(*)`.as('without'))
      .where('reorder_point', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(marked)).toBeGreaterThan(0);
    expect(Number(marked)).toBeLessThan(Number(without) / 2);
    const name = 'products_reorder_default_marked';
    const { rows } =
      dialect === 'sqlite'
        ? await sql<{ entries: number }>`select sum(ncell) as entries from dbstat
            where name = ${name}`.execute(db)
        : await sql<{ entries: number }>`select reltuples as entries from pg_class
            where relname = ${name}`.execute(db);
    expect(Number(rows[0]?.entries)).toBe(Number(marked));
  });
});
