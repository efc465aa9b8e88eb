import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import { unsyncedTransaction } from '../../infra/db/writer-settings.js';
import { HttpError } from '../../lib/http-error.js';
import { nextTurn } from '../../lib/turns.js';
import type { CatalogueWrite } from '../writes/index.js';
import { rethrowCodeTaken } from './codes.js';
import { recordMovements } from './movements.js';
import { markedAtCreation, onReorderPointsReached, readCataloguePoint } from './reorder.js';
import { addBatch, emptySums, sumsAt, type StagedSums, type Totals } from './staged-sums.js';
import { flushSearchIndexTurn } from './search/sqlite-merges.js';
import { deleteStagedProducts } from './failed-imports.js';
import { dropStagedUpdates, markApplying, stageUpdates, stagingGroups } from './import-applies.js';
import { addUnits } from './stock-levels.js';
import type { StagedProducts } from './import-writes.js';
import type { ImportedUpdate } from './rows.js';
import { insertTags } from './write-helpers.js';

/**
 * How long a staging import's lease runs: renewed with every batch (a few tens of milliseconds
 * apart), so only a process that died or stalled this long loses it to the sweep.
 */
const LEASE_MS = 60_000;

/** An import whose new products are staged: invisible until it publishes. */
export interface StagedImport {
  id: string;
  catalogueId: string;
  /** The rows it staged. */
  rows: StagedProducts;
  /** What they add up to, summed as they were staged: what its publish writes. */
  sums: StagedSums;
  /** How many updates of matched products it staged: applied once it is published. */
  updates: number;
  /** The app's clock, which the sweep reads leases by. */
  now: () => number;
}

/** The import's lease, renewed only while it is live: false once it ran out (being swept). */
async function renewLease(trx: DB, importId: string, now: number): Promise<boolean> {
  const renewed = await trx
    .updateTable('pending_imports')
    .set({ lease_until: now + LEASE_MS })
    .where('id', '=', importId)
    .where('lease_until', '>=', now)
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) === 1;
}

/**
 * The import stalled past its lease (the server fell far behind): what it staged may be swept
 * already, so it stops, drops the rest, and the client may send the file again.
 */
class LeaseLost extends HttpError {
  constructor() {
    super(
      503,
      'The import fell behind and was stopped: nothing of it was kept. Try again in a few seconds',
      { 'retry-after': '5' },
    );
    this.name = 'LeaseLost';
  }
}

/**
 * Writes an import's new products (SQLite) in short transactions, a batch of `batches` each, with
 * a turn of the event loop between them: other writers wait for one batch at most. The products,
 * their tags, movements and stock in the default location are written as a creation writes them,
 * marked with the import, so no read and no kept total sees them (migrations 037, 039); the
 * locations' units and the reorder webhooks wait for the publish. Then its `updates` of matched
 * products are staged too, as rows no read sees (migration 049), applied once it is published.
 * On any failure what was staged is deleted before the error goes on (a conflict of codes is the
 * usual 409).
 */
export async function stageImport(
  db: DB,
  target: { id: string; actorId: string | null },
  batches: StagedProducts,
  clock: { now: () => number; isGone: () => boolean },
  updates: ImportedUpdate[] = [],
): Promise<StagedImport> {
  const staged: StagedImport = {
    id: randomUUID(),
    catalogueId: target.id,
    rows: batches,
    updates: updates.length,
    sums: emptySums(),
    now: clock.now,
  };
  const now = clock.now();
  await db
    .insertInto('pending_imports')
    .values({
      id: staged.id,
      catalogue_id: target.id,
      lease_until: now + LEASE_MS,
      created_at: now,
    })
    .execute();
  try {
    for (const batch of batches) {
      if (batch.length === 0) continue;
      if (clock.isGone()) throw new Error('The client went away during the import');
      await unsyncedTransaction(db, async (trx) => {
        if (!(await renewLease(trx, staged.id, staged.now()))) throw new LeaseLost();
        // Marked, not announced: its publish announces them.
        const at = Math.max(...batch.map((row) => row.created_at));
        const point = await readCataloguePoint(trx, target.id);
        const { rows, crossed } = markedAtCreation(batch, point, at);
        addBatch(staged.sums, batch, point, crossed);
        await trx
          .insertInto('products')
          .values(rows.map((row) => ({ ...row, import_id: staged.id })))
          .execute();
        // The rows, their search index's write, a merge step and the rest each in a turn: an
        // import's batches, many in a second, merge as they go (migration 047).
        await flushSearchIndexTurn(trx, 'sqlite');
        await insertTags(trx, target.id, batch);
        const movements = batch.map((row) => ({
          productId: row.id,
          oldStock: 0,
          newStock: row.stock,
          source: 'import' as const,
          at: row.created_at,
        }));
        const into = { trx, dialect: 'sqlite' as const, catalogueId: target.id };
        await recordMovements({ ...into, actorId: target.actorId }, movements, false);
      });
      await nextTurn();
    }
    const into = { importId: staged.id, catalogueId: target.id };
    for (const group of stagingGroups(updates)) {
      if (clock.isGone()) throw new Error('The client went away during the import');
      await unsyncedTransaction(db, async (trx) => {
        if (!(await renewLease(trx, staged.id, staged.now()))) throw new LeaseLost();
        await stageUpdates(trx, into, group);
      });
      await nextTurn();
    }
  } catch (error) {
    await dropImport(db, staged);
    rethrowCodeTaken(error);
  }
  return staged;
}

/**
 * Deletes a failed import's staged products and updates (only SQLite stages), a short
 * transaction at a time, then its row.
 */
export async function dropImport(db: DB, staged: StagedImport): Promise<void> {
  await dropStagedUpdates(db, staged.id);
  await deleteStagedProducts({ db, dialect: 'sqlite' }, staged.id);
  await db.deleteFrom('pending_imports').where('id', '=', staged.id).execute();
}

/**
 * Adds sums of products to the catalogue's kept totals, or (`held`) to those of its default
 * location and the locations above it.
 */
async function addTotals(
  { trx, catalogueId }: CatalogueWrite,
  sums: Totals,
  kept: 'catalogue' | 'held' = 'catalogue',
) {
  for (const [part, sum] of sums) {
    if (sum.count === 0) continue;
    const added = {
      count: sum.count,
      units: sum.units,
      costed: sum.costed,
      to_reorder: sum.to_reorder,
      value_low: sum.value[0]!,
      value_middle: sum.value[1]!,
      value_high: sum.value[2]!,
      cost_low: sum.cost[0]!,
      cost_middle: sum.cost[1]!,
      cost_high: sum.cost[2]!,
    };
    const set = Object.fromEntries(
      Object.entries(added).map(([column, n]) => [column, sql<number>`${sql.ref(column)} + ${n}`]),
    ) as Record<keyof typeof added, RawBuilder<number>>;
    if (kept === 'catalogue') {
      await trx
        .updateTable('catalogue_totals')
        .set(set)
        .where('catalogue_id', '=', catalogueId)
        .where('part', '=', part)
        .execute();
      continue;
    }
    // Each product held is one stock row, in the default location: one place there and above.
    await trx
      .updateTable('location_totals')
      .set({ ...set, places: sql<number>`places + ${sum.count}` })
      .where('catalogue_id', '=', catalogueId)
      .where('part', '=', part)
      .where('location_id', 'in', (eb) =>
        eb
          .selectFrom('location_paths')
          .select('ancestor_id')
          .where('location_id', '=', catalogueId),
      )
      .execute();
  }
}

/**
 * Publishes a staged import in the write's transaction (SQLite): its lease checked (a lapsed one
 * may be swept already: nothing of it is kept), its products added to the catalogue's totals,
 * their movements to its days and their units to the default location, the crossings of their
 * reorder points announced (all summed as its batches were staged: no row is walked while the
 * write lock is held, unless the catalogue's reorder point moved meanwhile), its staged updates
 * marked to be applied after the commit (applyStagedUpdates), then its pending row deleted, which
 * makes every one of its products visible at the commit. No product row is written: a few
 * statements whatever the import's size.
 */
export async function publishImport(w: CatalogueWrite, staged: StagedImport): Promise<number> {
  const { trx, catalogueId } = w;
  const now = staged.now();
  if (!(await renewLease(trx, staged.id, now))) throw new LeaseLost();
  if (staged.updates > 0) await markApplying(w, staged.id, now);
  const point = await readCataloguePoint(trx, catalogueId);
  const sums = sumsAt(staged, point);
  await addTotals(w, sums.totals);
  // Their stock is in the default location: held there and in the locations above it (migration
  // 061), each product's units its stock.
  await addTotals(w, sums.held, 'held');
  // Each new product's one movement, from 0 to its stock, on the day it was created.
  for (const [day, { units, value }] of sums.days) {
    const [low, middle, high] = value;
    await trx
      .insertInto('catalogue_days')
      .values({
        catalogue_id: catalogueId,
        day,
        units,
        value_low: low!,
        value_middle: middle!,
        value_high: high!,
      })
      .onConflict((oc) =>
        oc.columns(['catalogue_id', 'day']).doUpdateSet((eb) => ({
          units: eb('catalogue_days.units', '+', units),
          value_low: eb('catalogue_days.value_low', '+', low!),
          value_middle: eb('catalogue_days.value_middle', '+', middle!),
          value_high: eb('catalogue_days.value_high', '+', high!),
        })),
      )
      .execute();
  }
  // New products' stock went to the default location, whose id is the catalogue's.
  await addUnits(w, new Map([[catalogueId, sums.units]]));
  await onReorderPointsReached(trx, catalogueId, sums.crossings, w.now);
  await trx.deleteFrom('pending_imports').where('id', '=', staged.id).execute();
  // Every product is in the part of all.
  return sums.totals.get('all')!.count;
}
