import { MAX_STOCK } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { recordMovements } from './movements.js';
import { trackReorderCrossings } from './reorder.js';
import {
  COLUMNS,
  UUID,
  writeTarget,
  type Adjustment,
  type StockChange,
  type WithinWrite,
  type WriteTarget,
} from './rows.js';
import { bumpCatalogueVersion } from './write-helpers.js';

/** Changes of stock that are not edits: adjustments by a delta, and counts. */
export class StockWrites {
  constructor(
    private readonly db: DB,
    private readonly dialect: MigrationDialect,
  ) {}

  /**
   * Changes the stock by `delta` in one conditional UPDATE: the row changes only if the result
   * stays within 0 and MAX_STOCK, so concurrent adjustments each apply to the stock the one before
   * left (PostgreSQL re-checks the condition on the row a concurrent update committed; SQLite runs
   * one writer at a time), and none can take it below 0. The movement is recorded in the same
   * transaction. The bounds are computed here, so no sum can overflow a 32-bit column.
   */
  async adjustStock(
    target: WriteTarget | string,
    id: string,
    change: StockChange & { delta: number },
    now: number,
    within?: WithinWrite<Adjustment>,
  ): Promise<Adjustment> {
    if (!UUID.test(id)) return { outcome: 'missing' };
    const { delta, note, reason } = change;
    const lowest = Math.max(0, -delta);
    const highest = Math.min(MAX_STOCK, MAX_STOCK - delta);
    const { id: catalogueId, actorId, confirm } = writeTarget(target);
    return this.db.transaction().execute(async (trx): Promise<Adjustment> => {
      await confirm(trx);
      const row = await trx
        .updateTable('products')
        .set({ stock: (eb) => eb('stock', '+', delta), updated_at: now })
        .where('catalogue_id', '=', catalogueId)
        .where('id', '=', id)
        .where('stock', '>=', lowest)
        .where('stock', '<=', highest)
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
        const refused = { outcome: delta < 0 ? 'below-zero' : 'above-max', stock: current.stock };
        // A refusal is the answer to this request too: given again, not tried again later.
        await within?.(trx, refused as Adjustment);
        return refused as Adjustment;
      }
      const movement = { productId: id, oldStock: row.stock - delta, newStock: row.stock, at: now };
      const [movementId] = await recordMovements(trx, catalogueId, actorId, [
        { ...movement, source: 'adjustment', reason, note },
      ]);
      await trackReorderCrossings(trx, catalogueId, [id], now);
      await bumpCatalogueVersion(trx, catalogueId);
      const done: Adjustment = {
        outcome: 'done',
        row,
        movement: { id: movementId!, ...movement, delta, reason: reason ?? null },
      };
      await within?.(trx, done);
      return done;
    });
  }

  /**
   * Sets the stock to a counted number, recorded as a `count` movement from the stock it replaced
   * (also when they are equal: the count itself is worth keeping). The row is locked from the read
   * to the write, so the movement's old stock is the one the count replaced.
   */
  async countStock(
    target: WriteTarget | string,
    id: string,
    change: StockChange & { count: number },
    now: number,
    within?: WithinWrite<Adjustment>,
  ): Promise<Adjustment> {
    if (!UUID.test(id)) return { outcome: 'missing' };
    const { count, note, reason } = change;
    const { id: catalogueId, actorId, confirm } = writeTarget(target);
    return this.db.transaction().execute(async (trx): Promise<Adjustment> => {
      await confirm(trx);
      const current = await trx
        .selectFrom('products')
        .select('stock')
        .where('catalogue_id', '=', catalogueId)
        .where('id', '=', id)
        // SQLite has no FOR UPDATE: its transactions already run one at a time.
        .$if(this.dialect === 'postgres', (query) => query.forUpdate())
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
      await bumpCatalogueVersion(trx, catalogueId);
      const done: Adjustment = {
        outcome: 'done',
        row,
        movement: {
          id: movementId!,
          ...movement,
          delta: count - current.stock,
          reason: reason ?? null,
        },
      };
      await within?.(trx, done);
      return done;
    });
  }
}
