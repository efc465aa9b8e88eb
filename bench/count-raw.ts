/**
 * The row changes of a count's posting (bench/count-pages.ts) made by raw prepared statements on
 * an SQLite connection of their own with the app writer's settings (src/server/infra/db/sqlite.ts),
 * on the same file, schema, indexes and triggers: what the same changes cost the database itself,
 * measured beside the app's posting in the same process.
 */
import SQLite from 'better-sqlite3';

/** How a count's posting changes each of its products: `delta` units at the shelf. */
export interface RawTarget {
  file: string;
  catalogueId: string;
  actorId: string;
  shelf: string;
  productIds: string[];
}

export function rawWriter({ file, catalogueId, actorId, shelf, productIds }: RawTarget) {
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('wal_autocheckpoint = 0');
  raw.pragma('temp_store = memory');
  raw.pragma('cache_size = -65536');
  const point = raw
    .prepare('select reorder_point from catalogues where id = ?')
    .pluck()
    .get(catalogueId) as number;
  // The posting's one update of a product: its stock, when it changed and moved, its reorder mark.
  const product = raw.prepare(`update products set stock = stock + @delta, updated_at = @now,
      last_moved_at = case when @now > created_at and coalesce(last_moved_at < @now, 1)
        then @now else last_moved_at end,
      reorder_crossed_at = case
        when reorder_crossed_at is null and stock + @delta <= coalesce(reorder_point, @point)
          then @now
        when reorder_crossed_at is not null
          and not (stock + @delta <= coalesce(reorder_point, @point)) then null
        else reorder_crossed_at end
    where id = @id returning stock`);
  const level =
    raw.prepare(`insert into stock_levels (product_id, location_id, catalogue_id, quantity)
    values (?, ?, ?, ?) on conflict (product_id, location_id)
    do update set quantity = quantity + excluded.quantity`);
  const dropEmpty = raw.prepare(
    'delete from stock_levels where product_id = ? and location_id = ? and quantity = 0',
  );
  // No count id: the app's undo finds its posting's movements by it.
  const movement = raw.prepare(`insert into stock_movements (product_id, catalogue_id, actor_id,
      created_at, old_stock, new_stock, delta, source, note, reason, location_id, count_id)
    values (?, ?, ?, ?, ?, ?, ?, 'count', null, 'counted', ?, null)`);
  const units = raw.prepare('update locations set units = units + ? where id = ?');
  // What the posting reads before it writes: each product, its rows at the shelf.
  const read = raw.prepare(
    'select name, stock, reorder_crossed_at from products where catalogue_id = ? and id = ?',
  );
  const held = raw.prepare(
    'select quantity from stock_levels where product_id = ? and location_id = ?',
  );

  /** Only the products' stock, as the posting's update writes it. */
  const products = raw.transaction((delta: number) => {
    const now = Date.now();
    for (const id of productIds) product.get({ id, delta, now, point });
  });
  /** Every row the posting changes: the shelf's stock rows, the products, the movements, units. */
  const rows = raw.transaction((delta: number, reads: boolean) => {
    const now = Date.now();
    if (reads)
      for (const id of productIds) {
        read.get(catalogueId, id);
        held.get(id, shelf);
      }
    for (const id of productIds) {
      level.run(id, shelf, catalogueId, delta);
      if (delta < 0) dropEmpty.run(id, shelf);
    }
    for (const id of productIds) {
      const { stock } = product.get({ id, delta, now, point }) as { stock: number };
      movement.run(id, catalogueId, actorId, now, stock - delta, stock, delta, shelf);
    }
    units.run(delta * productIds.length, shelf);
  });
  const take = raw.prepare(
    'update stock_levels set quantity = quantity - ? where product_id = ? and location_id = ?',
  );
  /** A transfer's rows: a unit of each product from its place to `to`, or back (`out` false). */
  const transfer = raw.transaction((moves: [string, string][], to: string, out: boolean) => {
    const gained = new Map<string, number>();
    for (const [id, from] of moves) {
      const [source, target] = out ? [from, to] : [to, from];
      take.run(1, id, source);
      dropEmpty.run(id, source);
      level.run(id, target, catalogueId, 1);
      gained.set(source, (gained.get(source) ?? 0) - 1);
      gained.set(target, (gained.get(target) ?? 0) + 1);
    }
    for (const [location, n] of gained) units.run(n, location);
  });
  /** The whole log into the file, as the app's checkpointer copies it after each commit. */
  const checkpoint = async () => {
    for (let attempt = 0; ; attempt += 1) {
      const [done] = raw.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (done?.busy === 0) return;
      if (attempt === 50) throw new Error('the log could not be checkpointed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { products, rows, transfer, checkpoint, close: () => raw.close() };
}
