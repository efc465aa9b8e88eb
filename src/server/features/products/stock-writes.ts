import { MAX_STOCK } from '../../../shared/constants.js';
import type { CatalogueWrite } from '../writes/index.js';
import { recordMovements } from './movements.js';
import { trackReorderCrossings } from './reorder.js';
import { COLUMNS, UUID, type Adjustment, type StockChange } from './rows.js';

/**
 * Changes the stock by `delta` in one conditional UPDATE: the row changes only if the result stays
 * within 0 and MAX_STOCK, so concurrent adjustments each apply to the stock the one before left
 * (PostgreSQL re-checks the condition on the row a concurrent update committed; SQLite runs one
 * writer at a time), and none can take it below 0. The movement is recorded in the same
 * transaction. The bounds are computed here, so no sum can overflow a 32-bit column.
 */
export async function adjustStock(
  w: CatalogueWrite,
  id: string,
  change: StockChange & { delta: number },
): Promise<Adjustment> {
  if (!UUID.test(id)) return { outcome: 'missing' };
  const { trx, catalogueId, actorId, now } = w;
  const { delta, note, reason } = change;
  const row = await trx
    .updateTable('products')
    .set({ stock: (eb) => eb('stock', '+', delta), updated_at: now })
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', id)
    .where('stock', '>=', Math.max(0, -delta))
    .where('stock', '<=', Math.min(MAX_STOCK, MAX_STOCK - delta))
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) {
    const current = await trx
      .selectFrom('products')
      .select('stock')
      .where('catalogue_id', '=', catalogueId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!current) return { outcome: 'missing' };
    return { outcome: delta < 0 ? 'below-zero' : 'above-max', stock: current.stock };
  }
  const movement = { productId: id, oldStock: row.stock - delta, newStock: row.stock, at: now };
  const [movementId] = await recordMovements(trx, catalogueId, actorId, [
    { ...movement, source: 'adjustment', reason, note },
  ]);
  await trackReorderCrossings(trx, catalogueId, [id], now);
  return {
    outcome: 'done',
    row,
    movement: { id: movementId!, ...movement, delta, reason: reason ?? null },
  };
}

/**
 * Sets the stock to a counted number, recorded as a `count` movement from the stock it replaced
 * (also when they are equal: the count itself is worth keeping). The row is locked from the read
 * to the write, so the movement's old stock is the one the count replaced.
 */
async function countStock(
  w: CatalogueWrite,
  id: string,
  change: StockChange & { count: number },
): Promise<Adjustment> {
  if (!UUID.test(id)) return { outcome: 'missing' };
  const { trx, catalogueId, actorId, now } = w;
  const { count, note, reason } = change;
  const current = await trx
    .selectFrom('products')
    .select('stock')
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', id)
    // SQLite has no FOR UPDATE: its transactions already run one at a time.
    .$if(w.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
  if (!current) return { outcome: 'missing' };
  const row = await trx
    .updateTable('products')
    .set({ stock: count, updated_at: now })
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  const movement = { productId: id, oldStock: current.stock, newStock: count, at: now };
  const [movementId] = await recordMovements(trx, catalogueId, actorId, [
    { ...movement, source: 'count', reason, note },
  ]);
  await trackReorderCrossings(trx, catalogueId, [id], now);
  const delta = count - current.stock;
  return {
    outcome: 'done',
    row,
    movement: { id: movementId!, ...movement, delta, reason: reason ?? null },
  };
}

/** Adds `delta` to the stock, or sets it to `count`: whichever the change carries. */
export function changeStock(
  w: CatalogueWrite,
  id: string,
  change: StockChange & { delta?: number | undefined; count?: number | undefined },
): Promise<Adjustment> {
  const { delta, count, reason, note } = change;
  // A count is a count unless said otherwise.
  if (count !== undefined) return countStock(w, id, { count, reason: reason ?? 'counted', note });
  return adjustStock(w, id, { delta: delta ?? 0, reason, note });
}
