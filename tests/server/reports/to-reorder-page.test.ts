import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
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
      'products_reorder_default_order',
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
