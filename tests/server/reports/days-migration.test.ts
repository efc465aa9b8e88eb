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
import { deadStock, readRaw, topMovers, type Raw } from './recompute.js';

const SHOP = '0a1b2c3d-0000-4000-8000-000000000003';
const DAY = 86_400_000;
const NOW = Date.parse('2026-06-15T10:00:00Z');
const MIDNIGHT = Math.floor(NOW / DAY) * DAY;
const product = (n: number) => `00000000-0000-4000-8000-00000000001${n}`;

/**
 * A catalogue as the migration before the kept days left it: products up to the largest price,
 * and movements on both sides of midnights, before the longest period, on its first day, today,
 * and after today (a clock set back), with deltas up to the largest stock; products with stock
 * that never moved, moved long ago, or were created lately, for the dead stock.
 */
async function populatedBeforeDays() {
  const database = await emptyDatabase();
  const { db } = database;
  await migrateAsOldRunner(db, '033_stock_days');
  await sql`insert into catalogues (id, name, personal, created_at, updated_at, reorder_point)
    values (${SHOP}, 'Shop', 0, 1, 1, 4)`.execute(db);
  const products: [number, number, number, number][] = [
    [1, 0, 100, 1],
    [2, 2_147_483_647, 9_999_999_999, 1],
    [3, 7, 250, 1],
    [4, 11, 1, 1],
    // Never moved; moved long ago (twice, the later one first); sold out long ago; created lately.
    [5, 3, 40, 5],
    [6, 2, 60, 1],
    [7, 0, 80, 1],
    [8, 5, 20, NOW - 10 * DAY],
  ];
  for (const [n, stock, price, createdAt] of products) {
    await sql`insert into products (id, catalogue_id, name, name_key, description, search_key,
        price_cents, stock, active, image_key, created_at, updated_at, tags)
      values (${product(n)}, ${SHOP}, ${`P${n}`}, ${`p${n}`}, '', ${`p${n}`}, ${price}, ${stock},
        1, null, ${createdAt}, 1, '[]')`.execute(db);
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
    [6, MIDNIGHT - 400 * DAY + 9, -1],
    [6, MIDNIGHT - 400 * DAY + 7, 3],
    [7, MIDNIGHT - 364 * DAY - 2, -4],
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
    const dead = (await queries.deadStock(SHOP, NOW - 90 * DAY)).map((row) => ({
      id: row.id,
      name: row.name,
      stock: row.stock,
      lastMovedAt: new Date(row.lastMovedAt).toISOString(),
    }));
    expect(dead).toEqual(deadStock(raw, NOW).products.map(({ value: _, ...row }) => row));
    return raw;
  };

  /** Each product's windows as kept, and as its movements from `firstDay` on add up. */
  const windows = async (raw: Raw, firstDay: (days: number) => number) => {
    const kept = await db
      .selectFrom('product_windows')
      .select(['product_id', 'days', 'name_key', 'units_in', 'units_out', 'moves', 'moved'])
      .where('catalogue_id', '=', SHOP)
      .orderBy('days')
      .orderBy('product_id')
      .execute();
    const expected = [30, 90, 365].flatMap((days) =>
      raw.products
        .map((row) => {
          const moves = raw.movements.filter(
            (m) => m.product_id === row.id && Math.floor(m.created_at / DAY) >= firstDay(days),
          );
          const unitsIn = moves.reduce((sum, m) => sum + Math.max(m.delta, 0), 0);
          const unitsOut = moves.reduce((sum, m) => sum - Math.min(m.delta, 0), 0);
          return {
            product_id: row.id,
            days,
            name_key: row.name_key,
            units_in: unitsIn,
            units_out: unitsOut,
            moves: moves.length,
            moved: unitsIn + unitsOut,
          };
        })
        .filter((row) => row.moves > 0)
        .sort((a, b) => (a.product_id < b.product_id ? -1 : 1)),
    );
    const numbers = kept.map((row) => ({
      ...row,
      units_in: Number(row.units_in),
      units_out: Number(row.units_out),
      moves: Number(row.moves),
      moved: Number(row.moved),
    }));
    expect(numbers).toEqual(expected);
  };
  const periodFirstDay = (days: number) => MIDNIGHT / DAY - (days - 1);

  it('adds up every existing movement into its day, exactly', async () => {
    expect(applied[0]).toBe('033_stock_days');
    // The windows start at day 0 and hold every movement until a report moves them on.
    const starts = await db
      .selectFrom('window_starts')
      .select(['days', 'start_day'])
      .where('catalogue_id', '=', SHOP)
      .orderBy('days')
      .execute();
    expect(starts.map((row) => [row.days, Number(row.start_day)])).toEqual([
      [30, 0],
      [90, 0],
      [365, 0],
    ]);
    await windows(await readRaw(db, SHOP), () => 0);
    await windows(await agree(), periodFirstDay);
    const days = await db.selectFrom('catalogue_days').select('day').execute();
    expect(days.length).toBe(7);
  });

  it('keeps them through writes made straight to the tables', async () => {
    // A rename sorts a product among the ties again: P3 and P4 moved 11 in 90 and 365 days.
    await sql`update products set name = 'Z3', name_key = 'z3' where id = ${product(3)}`.execute(
      db,
    );
    await windows(await agree(), periodFirstDay);
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
    await windows(await agree(), periodFirstDay);
    const left = await db.selectFrom('product_days').select('product_id').distinct().execute();
    expect(left.map((row) => row.product_id).sort()).toEqual([
      product(2),
      product(4),
      product(6),
      product(7),
    ]);
  });
});
