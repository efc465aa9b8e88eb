import { sql } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { build } from '../support/build.js';
import { member } from '../catalogues/support.js';

const BATCH = 500;
const OTHERS = 20_000;

/** `count` products to load, named after `prefix`. */
const products = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: `${prefix} product ${i}`,
    description: 'Seeded',
    priceCents: 100 + (i % 50),
    stock: 10,
    image: null,
    createdAt: i,
  }));

/**
 * One server for every test of the file, seeded once: the seeding is most of the file's time.
 * A stock change's rows are read with the own catalogue alone on the server (`alone`), then the
 * other tenant's products come.
 */
async function setUp() {
  const server = await build();
  const { db } = server.database;
  const own = await member(server, 'Ada');
  const other = await member(server, 'Bo');
  await bulkLoad(server.database, own.id, products('own', 2 * BATCH), 'create');
  const ids = (
    await db.selectFrom('products').select('id').where('catalogue_id', '=', own.id).execute()
  ).map((row) => row.id);

  /** The rows each table's scans returned during a stock change of `batch`, by table. */
  const rowsRead = (batch: string[]) =>
    db.transaction().execute(async (trx) => {
      await trx
        .updateTable('products')
        .set((eb) => ({ stock: eb('stock', '+', 1) }))
        .where('catalogue_id', '=', own.id)
        .where('id', 'in', batch)
        .execute();
      const { rows } = await sql<{ table: string; read: string }>`select relname as table,
          coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as read
        from pg_stat_xact_user_tables where relname <> 'products'`.execute(trx);
      return Object.fromEntries(
        rows.filter((row) => Number(row.read) > 0).map((row) => [row.table, Number(row.read)]),
      );
    });

  await sql`analyze`.execute(db);
  const alone = await rowsRead(ids.slice(0, BATCH));
  await bulkLoad(server.database, other.id, products('other', OTHERS), 'create');
  await sql`analyze`.execute(db);
  return { server, db, own, ids, rowsRead, alone };
}

// The set-up runs in a hook: a skipped suite's body still runs, and on SQLite it seeded servers
// for nothing.
describe.runIf(process.env.TEST_DATABASE_URL)('the triggers on products', () => {
  let world: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    world = await setUp();
  }, 240_000);

  /**
   * The triggers on products run inside every write to them, and the plans the cost-growth test
   * explains do not show what they read. PostgreSQL counts, per table and per transaction, the
   * rows each scan returned (`pg_stat_xact_user_tables`): a stock change of 500 products, alone
   * and beside another tenant's 20,000 products, must read as many rows of the tables the
   * triggers keep (windows, days, totals) either way, and fewer than the products it changed. Row
   * counts, not time: a loaded machine changes neither.
   */
  describe('the triggers of a bulk stock change', () => {
    it('read the rows of the products changed, whatever else the server holds', async () => {
      const { rowsRead, ids, alone } = world;
      const beside = await rowsRead(ids.slice(BATCH, 2 * BATCH));
      // A location's holdings (migration 061) are read per product changed, twice (as it was,
      // as it is) where its parts changed: each of these products has one, in its default
      // location. Counted apart from the rest, which reads nothing per product.
      const holdings = (read: Record<string, number>) => read.location_holdings ?? 0;
      expect(holdings(beside)).toBeLessThanOrEqual(2 * BATCH);
      expect(holdings(beside)).toBeLessThanOrEqual(holdings(alone));
      const total = (read: Record<string, number>) =>
        Object.entries(read)
          .filter(([table]) => table !== 'location_holdings')
          .reduce((sum, [, rows]) => sum + rows, 0);
      // The catalogue's totals and its row: nothing per product of the catalogue or of the other
      // tenant (a join of the days read them all: 1,000 rows alone, 21,000 beside).
      expect(total(beside), JSON.stringify({ alone, beside })).toBeLessThanOrEqual(BATCH);
      expect(total(beside), JSON.stringify({ alone, beside })).toBeLessThanOrEqual(
        total(alone) + 50,
      );
    }, 120_000);
  });

  /**
   * PL/pgSQL plans a trigger's statement once per connection, with as many rows in the transition
   * table as its first call had, and keeps that plan. A first statement of 1,000 movements made
   * the catalogue's days join every product of the server in a hash; each later movement
   * statement on that connection, a stock change of one product too, read them all again.
   */
  describe('the triggers of the movements', () => {
    it('find each movement’s product by key after a large statement on the connection', async () => {
      const { db, own } = world;
      const read = await db.transaction().execute(async (trx) => {
        // The plans made from here on are planned with this transaction's first statement.
        await sql`discard plans`.execute(trx);
        const move = (limit: number) =>
          sql`insert into stock_movements (product_id, catalogue_id, actor_id, created_at,
              old_stock, new_stock, delta, source, note, reason, location_id)
            select id, catalogue_id, ${own.id}, ${Date.now()}, stock, stock + 1, 1, 'count', null,
              'counted', null
            from products where catalogue_id = ${own.id} order by id limit ${limit}`.execute(trx);
        const productsRead = async () => {
          const { rows } = await sql<{ read: string }>`select
              coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as read
            from pg_stat_xact_user_tables where relname = 'products'`.execute(trx);
          return Number(rows[0]!.read);
        };
        await move(2 * BATCH);
        const before = await productsRead();
        await move(1);
        return (await productsRead()) - before;
      });
      // Its product, by its foreign key, its catalogue's days and its windows: not the 21,000.
      expect(read).toBeLessThanOrEqual(10);
    }, 120_000);
  });

  /**
   * A trigger's plan, kept from the connection's first call with one row in its transition
   * tables, joined the old rows to the new ones in a nested loop: a later statement of n rows read
   * the new rows n times over, n² rows (a count posting's 1,000 movements, the last-moved times
   * they set, an import's products, a seed's update of 100,000 stocks).
   */
  describe('a large statement after a small one', () => {
    const url = () => world.server.config.databaseUrl!;
    const ofOwn = (limit: number) =>
      `select id from products where catalogue_id = '${world.own.id}' order by id limit ${limit}`;
    const move = (limit: number, at: number) =>
      `insert into stock_movements (product_id, catalogue_id, created_at, old_stock, new_stock,
        delta, source) select id, catalogue_id, ${at}, stock, stock + 1, 1, 'adjustment'
        from products where id in (${ofOwn(limit)})`;

    it('reads each transition table once: a stock change of many products', async () => {
      const { loops, plans } = await transitionReads(
        url(),
        `update products set stock = stock + 1 where id in (${ofOwn(1)})`,
        `update products set stock = stock + 1 where id in (${ofOwn(2 * BATCH)})`,
      );
      expect(loops, plans.join('\n')).toBe(1);
    }, 60_000);

    it('reads each transition table once: movements of many products on days they had', async () => {
      const day = Date.parse('2026-01-01T12:00:00Z');
      // Days of their own already, so that the movements update them (the days' update trigger).
      await sql.raw(move(2 * BATCH, day)).execute(world.db);
      const { loops, plans } = await transitionReads(url(), move(1, day), move(2 * BATCH, day));
      expect(loops, plans.join('\n')).toBe(1);
    }, 60_000);
  });
});

/**
 * The greatest number of times one plan, of any statement a trigger ran during `statement`,
 * read a transition table (auto_explain's `loops` of its Named Tuplestore Scans), on a
 * connection of its own whose plans were made by `first`.
 */
async function transitionReads(url: string, first: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const plans: string[] = [];
    client.on('notice', (notice) => plans.push(notice.message ?? ''));
    await client.query(`load 'auto_explain'`);
    for (const setting of [
      'log_min_duration = 0',
      'log_analyze = on',
      'log_timing = off',
      'log_nested_statements = on',
      'log_level = notice',
    ]) {
      await client.query(`set auto_explain.${setting}`);
    }
    await client.query('begin');
    await client.query(first);
    plans.length = 0;
    await client.query(statement);
    await client.query('rollback');
    const loops = plans.flatMap((plan) =>
      [...plan.matchAll(/Named Tuplestore Scan .*\bloops=(\d+)\)/g)].map((m) => Number(m[1])),
    );
    return { loops: Math.max(...loops), plans };
  } finally {
    await client.end();
  }
}
