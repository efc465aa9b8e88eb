import { setImmediate } from 'node:timers/promises';
import { sql } from 'kysely';
import { trackReorderCrossings } from '../../../src/server/features/products/index.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import type { DatabaseHandle } from '../../../src/server/infra/db/handle.js';

const DAY = 86_400_000;
/** Rows per INSERT of movements: 9 values each, under either engine's limit of parameters. */
const BATCH = 2_000;

/** A small deterministic generator (mulberry32): the same catalogue on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * below);
  };
}

/**
 * A catalogue of `products` products and `movements` stock movements over the last 400 days,
 * inserted directly (the reports' benchmark and their large correctness test): each product is
 * created (with its movement) 400 to 10 days ago, then moves at random times after that, its
 * stock never below 0. One in ten stops moving 100 days ago (dead stock), and some have reorder
 * points of their own.
 */
export async function seedReportCatalogue(
  database: DatabaseHandle,
  catalogueId: string,
  now: number,
  counts = { products: 10_000, movements: 200_000 },
) {
  const next = random(counts.products);
  const perProduct = Math.floor((counts.movements - counts.products) / counts.products);
  const plans = [];
  for (let i = 0; i < counts.products; i += 1) {
    const createdAt = now - (10 + next(390)) * DAY - next(DAY);
    const until = i % 10 === 0 ? now - 100 * DAY : now;
    const times = Array.from(
      { length: perProduct },
      () => createdAt + next(Math.max(1, until - createdAt)),
    ).sort((a, b) => a - b);
    const initial = next(60);
    let stock = initial;
    const moves = times.map((at) => {
      const delta = next(3) === 0 ? next(40) + 1 : -Math.min(stock, next(15) + 1) || 1;
      const move = { at, oldStock: stock, newStock: stock + delta };
      stock += delta;
      return move;
    });
    plans.push({ i, createdAt, initial, moves });
  }
  // Created with their first stock (the creation's movement), then the movements after it.
  await bulkLoad(
    database,
    catalogueId,
    plans.map((plan) => ({
      name: `Seeded product ${String(plan.i).padStart(5, '0')}`,
      description: 'Seeded for the reports',
      priceCents: ((plan.i * 7919) % 99_999) + 1,
      stock: plan.initial,
      image: null,
      createdAt: plan.createdAt,
    })),
    'create',
  );
  const ids = new Map(
    (
      await database.db
        .selectFrom('products')
        .select(['id', 'name'])
        .where('catalogue_id', '=', catalogueId)
        .execute()
    ).map((row) => [row.name, row.id]),
  );
  const rows = plans.flatMap((plan) => {
    const productId = ids.get(`Seeded product ${String(plan.i).padStart(5, '0')}`)!;
    return plan.moves.map((move) => ({
      product_id: productId,
      catalogue_id: catalogueId,
      created_at: move.at,
      old_stock: move.oldStock,
      new_stock: move.newStock,
      delta: move.newStock - move.oldStock,
      source: 'adjustment' as const,
      note: null,
      reason: null,
    }));
  });
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += BATCH) {
      await trx
        .insertInto('stock_movements')
        .values(rows.slice(i, i + BATCH))
        .execute();
      await setImmediate();
    }
  });
  // Each product's stock is where its movements took it.
  await sql`update products set stock = stock + coalesce((select sum(m.delta)
    from stock_movements m where m.product_id = products.id and m.source = 'adjustment'), 0)
    where catalogue_id = ${catalogueId}`.execute(database.db);
  // Reorder points of their own on one product in seven, some high enough to matter.
  const points = new Map<number, string[]>();
  for (let i = 0; i < plans.length; i += 7) {
    const point = (i * 13) % 80;
    const id = ids.get(`Seeded product ${String(i).padStart(5, '0')}`)!;
    points.set(point, [...(points.get(point) ?? []), id]);
  }
  for (const [point, chosen] of points) {
    await database.db
      .updateTable('products')
      .set({ reorder_point: point })
      .where('id', 'in', chosen)
      .execute();
  }
  // Marked as every write path marks them, so the list filtered to reorder sees what a
  // catalogue that grew through the app would show.
  await database.db
    .transaction()
    .execute((trx) => trackReorderCrossings(trx, catalogueId, 'all', now, false));
  if (database.dialect === 'postgres') {
    // Fresh statistics, as autovacuum would have them on a catalogue that grew over time.
    await sql`analyze`.execute(database.db);
  }
  return { products: plans.length, movements: rows.length + plans.length };
}
