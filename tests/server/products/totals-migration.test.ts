import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/server/infra/db/migrate.js';
import type { Database } from '../../../src/server/infra/db/schema.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import {
  emptyDatabase,
  migrateAsOldRunner,
  testDialect as dialect,
} from '../support/legacy-database.js';

const SHOP = '0a1b2c3d-0000-4000-8000-000000000001';
const EMPTY = '0a1b2c3d-0000-4000-8000-000000000002';

/** Two catalogues as the migration before the totals left them: one with products, one without. */
async function populatedBeforeTotals() {
  const database = await emptyDatabase();
  const { db } = database;
  await migrateAsOldRunner(db, '032_catalogue_totals');
  await sql`insert into catalogues (id, name, personal, created_at, updated_at, reorder_point)
    values (${SHOP}, 'Shop', 0, 1, 1, 4), (${EMPTY}, 'Empty', 0, 2, 2, 0)`.execute(db);
  const rows: [number, number, number, number | null, number | null][] = [
    [1, 0, 100, null, null],
    [2, 3, 9_999_999_999, 5, null],
    [3, 7, 250, 10, 8],
    [4, 11, 1, null, 20],
    [5, 2_147_483_647, 9_999_999_999, 9_999_999_999, null],
  ];
  for (const [n, stock, price, cost, point] of rows) {
    await sql`insert into products (id, catalogue_id, name, name_key, description, search_key,
        price_cents, stock, active, image_key, created_at, updated_at, tags, cost_cents,
        reorder_point)
      values (${`00000000-0000-4000-8000-00000000000${n}`}, ${SHOP}, ${`P${n}`}, ${`p${n}`},
        '', ${`p${n}`}, ${price}, ${stock}, 1, null, ${n}, ${n}, '[]', ${cost}, ${point})`.execute(
      db,
    );
  }
  return database;
}

describe('the totals migration on a populated database', async () => {
  const database = await populatedBeforeTotals();
  afterAll(database.drop);
  const db = database.db as unknown as Kysely<Database>;
  const applied = await migrate(db as unknown as Kysely<unknown>, dialect);

  it("counts every existing catalogue's products, exactly", async () => {
    expect(applied[0]).toBe('032_catalogue_totals');
    for (const id of [SHOP, EMPTY])
      expect(await keptTotals(db, id)).toEqual(await recountTotals(db, id));
    expect((await keptTotals(db, SHOP)).all).toMatchObject({ count: 5, toReorder: 4 });
  });

  it('keeps them through writes made straight to the tables, and a change of point', async () => {
    await sql`update products set stock = stock + 5 where catalogue_id = ${SHOP}
      and stock < 100`.execute(db);
    await sql`update catalogues set reorder_point = 12 where id = ${SHOP}`.execute(db);
    await sql`delete from products where id = '00000000-0000-4000-8000-000000000002'`.execute(db);
    expect(await keptTotals(db, SHOP)).toEqual(await recountTotals(db, SHOP));
    await sql`update catalogues set reorder_point = 0 where id = ${SHOP}`.execute(db);
    expect(await keptTotals(db, SHOP)).toEqual(await recountTotals(db, SHOP));
  });
});
