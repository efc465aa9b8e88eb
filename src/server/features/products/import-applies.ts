import type { DB } from '../../infra/db/handle.js';
import { unsyncedTransaction } from '../../infra/db/writer-settings.js';
import { nextTurn } from '../../lib/turns.js';
import { recordLiveEvent } from '../live-events/index.js';
import { bumpCatalogueVersion, type CatalogueWrite } from '../writes/index.js';
import { applyImported } from './import-writes.js';
import { BATCH_ROWS, type ImportedUpdate } from './rows.js';

/**
 * How long an applying import's lease runs: renewed with every batch, so only a process that
 * died (or stalled this long) leaves the rest of its updates to the sweep.
 */
const APPLY_LEASE_MS = 60_000;

/**
 * Products written in one applied batch: a bulk write's batch. Each commit writes its dirty pages
 * again (the totals, days, windows and stock indexes a batch shares with the next), so smaller
 * batches cost more in all: 20,000 rows re-imported took 7.1 s of the server's CPU in batches of
 * 100 and 9.9 s in batches of 50 (one transaction: 4.0 s), for no shorter wait beside them.
 */
const APPLIED_PER_TRANSACTION = BATCH_ROWS;

/** Staged updates written in one of the staging's transactions: a few hundred rows of JSON. */
const STAGED_PER_TRANSACTION = 5 * BATCH_ROWS;

/**
 * Stages a re-import's updates under its pending import (in the transaction of one staged batch):
 * each row's fields as JSON, keyed by its product. None of them touches a product until the import
 * commits, so a failed import only deletes them.
 */
export async function stageUpdates(
  trx: DB,
  target: { importId: string; catalogueId: string },
  updates: ImportedUpdate[],
): Promise<void> {
  await trx
    .insertInto('import_updates')
    .values(
      updates.map(({ id, product }) => ({
        import_id: target.importId,
        product_id: id,
        catalogue_id: target.catalogueId,
        fields: JSON.stringify(product),
      })),
    )
    .execute();
}

/** The updates in groups of one staging transaction each. */
export function* stagingGroups(updates: ImportedUpdate[]): Generator<ImportedUpdate[]> {
  for (let i = 0; i < updates.length; i += STAGED_PER_TRANSACTION)
    yield updates.slice(i, i + STAGED_PER_TRANSACTION);
}

/**
 * Deletes an import's staged updates (a failed import's), a short transaction at a time.
 */
export async function dropStagedUpdates(db: DB, importId: string): Promise<void> {
  for (;;) {
    const result = await db
      .deleteFrom('import_updates')
      .where('import_id', '=', importId)
      .where(
        'product_id',
        'in',
        db
          .selectFrom('import_updates')
          .select('product_id')
          .where('import_id', '=', importId)
          .limit(STAGED_PER_TRANSACTION),
      )
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return;
    await nextTurn();
  }
}

/**
 * Marks a published import's staged updates as to be applied (in the publish's transaction: the
 * import's commit point). From then on they are applied whatever happens: by the import, or by
 * the sweep once its lease ran out.
 */
export async function markApplying(
  w: CatalogueWrite,
  importId: string,
  leaseFrom: number,
): Promise<void> {
  await w.trx
    .insertInto('import_applies')
    .values({
      id: importId,
      catalogue_id: w.catalogueId,
      actor_id: w.actorId,
      committed_at: w.now,
      lease_until: leaseFrom + APPLY_LEASE_MS,
    })
    .execute();
}

/** What an import's apply did so far: products written, and products found deleted. */
export interface ApplyTally {
  applied: number;
  skipped: number;
}

/**
 * Applies a committed import's staged updates (SQLite), a batch of its products at a time in the
 * order of their ids, each batch in a short transaction of its own with a turn of the event loop
 * between them: other writers wait for one batch at most. A batch reads its products as they are
 * then, so each change of stock is a movement from the stock the product has when it is written
 * (another user's change meanwhile stays in the history), and it writes what the write pipeline
 * would: the catalogue's version bumped (caches follow), the kept totals, days, windows and
 * reorder marks through the same writes as before. Its staged rows go in the same transaction,
 * so a batch is applied once even when the sweep and the import both apply (a stall past the
 * lease). The last batch deletes the import's row and records `live` (given the tally with that
 * batch) for the catalogue's streams. Renews the lease with every batch. Adds each committed
 * batch to `tally` (a product deleted since the import was planned is skipped), so a caller that
 * tries again after an error counts on from where it failed.
 */
export async function applyStagedUpdates(
  db: DB,
  importId: string,
  clock: { now: () => number },
  live: (tally: ApplyTally) => { created: number; updated: number },
  tally: ApplyTally = { applied: 0, skipped: 0 },
): Promise<ApplyTally> {
  for (let done = false; !done;) {
    // Counted once its transaction committed: a batch rolled back is applied again.
    const batch = { applied: 0, skipped: 0 };
    await unsyncedTransaction(db, async (trx) => {
      const now = clock.now();
      const applying = await trx
        .updateTable('import_applies')
        .set({ lease_until: now + APPLY_LEASE_MS })
        .where('id', '=', importId)
        .returning(['catalogue_id', 'actor_id', 'committed_at'])
        .executeTakeFirst();
      // Applied to the end by someone else (the sweep, after a stall).
      if (!applying) {
        done = true;
        return;
      }
      const staged = await trx
        .selectFrom('import_updates')
        .select(['product_id', 'fields'])
        .where('import_id', '=', importId)
        .orderBy('product_id')
        .limit(APPLIED_PER_TRANSACTION)
        .execute();
      const catalogueId = applying.catalogue_id;
      if (staged.length > 0) {
        const w: CatalogueWrite = {
          trx,
          catalogueId,
          actorId: applying.actor_id,
          dialect: 'sqlite',
          now: Math.max(now, Number(applying.committed_at)),
        };
        // A product's movement is when it is written, never before the import committed.
        const updates: ImportedUpdate[] = staged.map((row) => ({
          id: row.product_id,
          product: JSON.parse(row.fields) as ImportedUpdate['product'],
          at: w.now,
        }));
        batch.applied = await applyImported(w, updates);
        batch.skipped = staged.length - batch.applied;
        await trx
          .deleteFrom('import_updates')
          .where('import_id', '=', importId)
          .where(
            'product_id',
            'in',
            staged.map((row) => row.product_id),
          )
          .execute();
        await bumpCatalogueVersion(trx, catalogueId);
      }
      if (staged.length < APPLIED_PER_TRANSACTION) {
        await trx.deleteFrom('import_applies').where('id', '=', importId).execute();
        const counts = live({
          applied: tally.applied + batch.applied,
          skipped: tally.skipped + batch.skipped,
        });
        await recordLiveEvent(trx, catalogueId, 'import.done', counts, now);
        done = true;
      }
    });
    tally.applied += batch.applied;
    tally.skipped += batch.skipped;
    await nextTurn();
  }
  return tally;
}

/**
 * Claims a committed import whose applier's lease ran out (its process died after the commit,
 * or stalled a minute): true when this caller took it over and should apply the rest.
 */
export async function claimApplying(db: DB, importId: string, now: number): Promise<boolean> {
  const claimed = await db
    .updateTable('import_applies')
    .set({ lease_until: now + APPLY_LEASE_MS })
    .where('id', '=', importId)
    .where('lease_until', '<', now)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}
