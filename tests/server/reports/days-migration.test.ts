import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportQueries } from '../../../src/server/features/reports/queries.js';
import { migrate } from '../../../src/server/infra/db/migrate.js';
import type { Database } from '../../../src/server/infra/db/schema.js';
import {
  emptyDatabase,
  migrateAsOldRunner,
  testDialect as dialect,
} from '../support/legacy-database.js';
import { readRaw, topMovers, type Raw } from './recompute.js';

const SHOP = '0a1b2c3d-0000-4000-8000-000000000003';
const DAY = 86_400_000;
const NOW = Date.parse('2026-06-15T10:00:00Z');
const MIDNIGHT = Math.floor(NOW / DAY) * DAY;
const product = (n: number) => `00000000-0000-4000-8000-00000000001${n}`;

/**
 * A catalogue as the migration before the kept days left it: products up to the largest price,
 * and movements on both sides of midnights, before the longest period, on its first day, today,
 * and after today (a clock set back), with deltas up to the largest stock.
 */
async function populatedBeforeDays() {
  const database = await emptyDatabase();
  const { db } = database;
  await migrateAsOldRunner(db, '033_stock_days');
  await sql`insert into catalogues (id, name, personal, created_at, updated_at, reorder_point)
    values (${SHOP}, 'Shop', 0, 1, 1, 4)`.execute(db);
  const products: [number, number, number][] = [
    [1, 0, 100],
    [2, 2_147_483_647, 9_999_999_999],
    [3, 7, 250],
    [4, 11, 1],
  ];
  for (const [n, stock, price] of products) {
    await sql`insert into products (id, catalogue_id, name, name_key, description, search_key,
        price_cents, stock, active, image_key, created_at, updated_at, tags)
      values (${product(n)}, ${SHOP}, ${`P${n}`}, ${`p${n}`}, '', ${`p${n}`}, ${price}, ${stock},
        1, null, 1, 1, '[]')`.execute(db);
  }
  const movements: [number, number, number][] = [
    [1, MIDNIGHT - 400 * DAY, 5],
    [1, MIDNIGHT - 364 * DAY, -5],
    [2, MIDNIGHT - 364 * DAY - 1, 2_147_483_647],
    [2, MIDNIGHT - 89 * DAY, -2_147_483_647],
    [2, MIDNIGHT - 89 * DAY + 5, 2_147_483_647],
    [3, MIDNIGHT - 30 * DAY, 9],
    [3, MIDNIGHT - 29 * DAY - 1, -2],
    [3, MIDNIGHT, 0],
    [4, MIDNIGHT + 1000, 11],
    [4, MIDNIGHT + 3 * DAY, 0],
  ];
  for (const [n, at, delta] of movements) {
    await sql`insert into stock_movements (product_id, catalogue_id, created_at, old_stock,
        new_stock, delta, source)
      values (${product(n)}, ${SHOP}, ${at}, 0, ${delta}, ${delta}, 'adjustment')`.execute(db);
  }
  return database;
}

/** Units and cents at the end of each day, from the raw rows, exactly (BigInt). */
function expectedDays(raw: Raw, days: number) {
  const first = MIDNIGHT - (days - 1) * DAY;
  return Array.from({ length: days }, (_, i) => {
    const end = first + (i + 1) * DAY;
    let units = 0;
    let cents = 0n;
    for (const row of raw.products) {
      const later = raw.movements
        .filter((m) => m.product_id === row.id && m.created_at >= end)
        .reduce((sum, m) => sum + m.delta, 0);
      units += row.stock - later;
      cents += BigInt(row.price_cents) * BigInt(row.stock - later);
    }
    return { start: first + i * DAY, units, valueCents: cents };
  });
}

describe('the kept days migration on a populated database', async () => {
  const database = await populatedBeforeDays();
  afterAll(database.drop);
  const db = database.db as unknown as Kysely<Database>;
  const applied = await migrate(db as unknown as Kysely<unknown>, dialect);
  const queries = new ReportQueries(db, dialect);

  const agree = async () => {
    const raw = await readRaw(db, SHOP);
    for (const days of [30, 90, 365]) {
      expect(await queries.stockOverTime(SHOP, NOW, days), `${days} days`).toEqual(
        expectedDays(raw, days),
      );
      const movers = topMovers(raw, NOW, days, 10).products.map(({ moved, ...row }) => {
        expect(moved).toBe(row.unitsIn + row.unitsOut);
        return row;
      });
      expect(await queries.topMovers(SHOP, NOW, days, 10), `${days} days`).toEqual(movers);
    }
  };

  it('adds up every existing movement into its day, exactly', async () => {
    expect(applied[0]).toBe('033_stock_days');
    await agree();
    const days = await db.selectFrom('catalogue_days').select('day').execute();
    expect(days.length).toBe(7);
  });

  it('keeps them through writes made straight to the tables', async () => {
    await sql`insert into stock_movements (product_id, catalogue_id, created_at, old_stock,
        new_stock, delta, source)
      values (${product(3)}, ${SHOP}, ${MIDNIGHT - 2 * DAY}, 7, 4, -3, 'adjustment')`.execute(db);
    await sql`update products set stock = 4 where id = ${product(3)}`.execute(db);
    await agree();
    await sql`update products set price_cents = price_cents + 1234567 where catalogue_id = ${SHOP}
      and id <> ${product(2)}`.execute(db);
    await sql`update products set price_cents = 1 where id = ${product(2)}`.execute(db);
    await agree();
    await sql`delete from products where id in (${product(1)}, ${product(3)})`.execute(db);
    await agree();
    const left = await db.selectFrom('product_days').select('product_id').distinct().execute();
    expect(left.map((row) => row.product_id).sort()).toEqual([product(2), product(4)]);
  });
});
