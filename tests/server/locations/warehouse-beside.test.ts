import { randomUUID } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../../src/server/features/accounts/users.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { heldSummaryQuery } from '../../../src/server/features/products/held-summary.js';
import { ProductQueries } from '../../../src/server/features/products/queries.js';
import { build } from '../support/build.js';
import { productIdsOf } from '../support/products.js';

/**
 * Another tenant's stock must change nothing in what a warehouse's summary reads: the small
 * catalogue's warehouse is summed from its own stock rows, though the other catalogue's hold many
 * more per location and so sway PostgreSQL's estimates of how many rows its locations hold.
 */
interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PgNode[];
}

describe('a warehouse beside a larger tenant', async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const queries = new ProductQueries(db, dialect);
  const warehouses = new Map<string, string>();
  async function seed(name: string, count: number, places: number) {
    const catalogueId = await insertUser(
      db,
      { name, email: `${name}-beside@example.com`, passwordHash: 'x' },
      0,
    );
    await bulkLoad(
      { db, dialect },
      catalogueId,
      Array.from({ length: count }, (_, i) => ({
        name: `Product ${i}`,
        description: 'Plain',
        priceCents: (i % 700) + 1,
        stock: 0,
        image: null,
        createdAt: i,
        tags: [],
      })),
    );
    const warehouse = randomUUID();
    const rows = [{ id: warehouse, parent: null as string | null }];
    const bins: string[] = [];
    for (let a = 0; a < 10; a += 1) {
      const aisle = randomUUID();
      rows.push({ id: aisle, parent: warehouse });
      for (let b = 0; b < 20; b += 1) {
        const bin = randomUUID();
        bins.push(bin);
        rows.push({ id: bin, parent: aisle });
      }
    }
    await db
      .insertInto('locations')
      .values(
        rows.map((row, i) => ({
          id: row.id,
          catalogue_id: catalogueId,
          parent_id: row.parent,
          name: `Place ${i}`,
          name_key: `place ${i}`,
          code: `P-${name}-${i}`,
          code_key: `p-${name}-${i}`,
          created_at: 0,
          updated_at: 0,
        })),
      )
      .execute();
    const levels = (await productIdsOf(db, catalogueId)).flatMap((id, i) =>
      Array.from({ length: places }, (_, step) => ({
        product_id: id,
        location_id: bins[(i + step * 7) % bins.length]!,
        catalogue_id: catalogueId,
        quantity: (i % 12) + 1,
      })),
    );
    for (let i = 0; i < levels.length; i += 2000) {
      await db
        .insertInto('stock_levels')
        .values(levels.slice(i, i + 2000))
        .execute();
    }
    await db
      .updateTable('products')
      .set({ stock: sql`(select sum(quantity) from stock_levels where product_id = products.id)` })
      .where('catalogue_id', '=', catalogueId)
      .execute();
    warehouses.set(catalogueId, warehouse);
    return catalogueId;
  }
  await seed('big', 2_000, 25);
  const small = await seed('small', 300, 3);
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'select 1').execute(db);

  /**
   * The plan of a statement, and the stock rows it read: on PostgreSQL as it ran (every row its
   * scans of stock_levels produced or filtered out); SQLite plans without counts.
   */
  async function stockRowsRead(query: CompiledQuery): Promise<{ plan: string; rows: number }> {
    if (dialect === 'sqlite') {
      const result = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      return { plan: result.rows.map((row) => row.detail).join('\n'), rows: 0 };
    }
    const result = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PgNode }] }>(
      CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
    );
    const root = result.rows[0]!['QUERY PLAN'][0].Plan;
    let rows = 0;
    const names: string[] = [];
    const walk = (node: PgNode) => {
      names.push(`${node['Node Type']} on ${node['Relation Name'] ?? ''}`);
      if (node['Relation Name'] === 'stock_levels') {
        rows +=
          (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'];
      }
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(root);
    return { plan: names.join('\n'), rows };
  }

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
});
