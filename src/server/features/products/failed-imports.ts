import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { nextTurn } from '../../lib/turns.js';
import { batchesToDelete } from './delete-writes.js';
import { applyStagedUpdates, claimApplying, dropStagedUpdates } from './import-applies.js';
import { flushSearchIndexTurn } from './search/sqlite-merges.js';

/**
 * Deletes an import's staged products (their tags, movements, stock rows and days going with
 * them), a short transaction at a time, each of search keys within what a staged batch wrote
 * (batchesOf): removing a key from the search index costs what adding it did, and 100 keys of the
 * longest description in one transaction held the event loop 160-360 ms. As a staged batch, each
 * writes the index and merges a step in turns of its own. Returns how many.
 */
export async function deleteStagedProducts(
  database: { db: DB; dialect: MigrationDialect },
  importId: string,
): Promise<number> {
  const { db, dialect } = database;
  let deleted = 0;
  for await (const ids of batchesToDelete(db, 'import_id', importId)) {
    await db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom('products')
        .where('import_id', '=', importId)
        .where('id', 'in', ids)
        .executeTakeFirst();
      deleted += Number(result.numDeletedRows);
      await flushSearchIndexTurn(trx, dialect);
    });
    await nextTurn();
  }
  return deleted;
}

/** Imports swept a run: the next run takes the rest. */
const IMPORTS_A_RUN = 10;

/**
 * Deletes what imports whose lease ran out before their commit (their process died, or they
 * stalled past it) left staged: their staged updates, their products (tags, movements, stock
 * rows and days going with them), a short transaction at a time, then their pending row. A lease
 * once past is never renewed (the writer renews only a live one, and a publish checks it), so
 * nothing is staged into an import being swept. Their products were never counted in any total
 * (migration 039) nor seen by any read, so deleting them changes neither; the pending row goes
 * last, in a statement that finds none of its products left, since a product of an import that is
 * no longer pending is visible.
 * Then it finishes what imports that committed left to apply when their applier's lease ran out
 * (their process died after the commit): the rest of their updates, as the import would have.
 * Returns how many products were deleted.
 */
export async function sweepFailedImports(
  database: { db: DB; dialect: MigrationDialect },
  now: number,
): Promise<number> {
  const { db } = database;
  // The imports of either kind whose lease ran out, the oldest first.
  const expired = (table: 'pending_imports' | 'import_applies') =>
    db
      .selectFrom(table)
      .select('id')
      .where('lease_until', '<', now)
      .orderBy('lease_until')
      .limit(IMPORTS_A_RUN)
      .execute();
  let deleted = 0;
  for (const { id } of await expired('pending_imports')) {
    await dropStagedUpdates(db, id);
    deleted += await deleteStagedProducts(database, id);
    await db
      .deleteFrom('pending_imports')
      .where('id', '=', id)
      .where('lease_until', '<', now)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('products').select('id').where('import_id', '=', id))),
      )
      .execute();
  }
  for (const { id } of await expired('import_applies')) {
    if (!(await claimApplying(db, id, now))) continue;
    await applyStagedUpdates(db, id, { now: () => now }, ({ applied }) => ({
      created: 0,
      updated: applied,
    }));
  }
  return deleted;
}
