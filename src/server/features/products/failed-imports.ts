import type { DB } from '../../infra/db/handle.js';
import { nextTurn } from '../../lib/turns.js';

/** Products deleted a transaction: each one short, so another writer waits for one at most. */
const ROWS_A_TRANSACTION = 100;

/**
 * Deletes an import's staged products (their tags, movements, stock rows and days going with
 * them), a short transaction at a time. Returns how many.
 */
export async function deleteStagedProducts(db: DB, importId: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await db
      .deleteFrom('products')
      .where(
        'id',
        'in',
        db
          .selectFrom('products')
          .select('id')
          .where('import_id', '=', importId)
          .limit(ROWS_A_TRANSACTION),
      )
      .executeTakeFirst();
    const count = Number(rows.numDeletedRows);
    deleted += count;
    if (count < ROWS_A_TRANSACTION) return deleted;
    await nextTurn();
  }
}
/** Imports swept a run: the next run takes the rest. */
const IMPORTS_A_RUN = 10;

/**
 * Deletes what imports whose lease ran out (their process died, or they stalled past it) left
 * staged: their products (tags, movements, stock rows and days going with them), a short
 * transaction at a time, then their pending row. A lease once past is never renewed (the writer
 * renews only a live one), so nothing is staged into an import being swept. Their products were
 * never counted in any total (migration 039) nor seen by any read, so deleting them changes
 * neither; the pending row goes last, in a statement that finds none of its products left,
 * since a product of an import that is no longer pending is visible.
 * Returns how many products were deleted.
 */
export async function sweepFailedImports(db: DB, now: number): Promise<number> {
  const expired = await db
    .selectFrom('pending_imports')
    .select('id')
    .where('lease_until', '<', now)
    .orderBy('lease_until')
    .limit(IMPORTS_A_RUN)
    .execute();
  let deleted = 0;
  for (const { id } of expired) {
    deleted += await deleteStagedProducts(db, id);
    await db
      .deleteFrom('pending_imports')
      .where('id', '=', id)
      .where('lease_until', '<', now)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('products').select('id').where('import_id', '=', id))),
      )
      .execute();
  }
  return deleted;
}
