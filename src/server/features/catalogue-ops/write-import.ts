import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { DB } from '../../infra/db/handle.js';
import {
  applyStagedUpdates,
  dropImport,
  loadProducts,
  publishImport,
  stageImport,
  stageProducts,
  type ImportedUpdate,
  type StagedImport,
  type StagedProducts,
} from '../products/index.js';
import type { CatalogueWrite, Stage, WriteTarget } from '../writes/index.js';
import type { ImportRow } from './csv-import.js';
import type { ImportPlan } from './import-matching.js';

/** A row's fields as a product takes them. */
const fields = (row: ImportRow) => ({
  name: row.name,
  description: row.description,
  priceCents: row.priceCents,
  stock: row.stock,
  tags: row.tags,
  costCents: row.costCents ?? null,
  sku: row.sku ?? null,
  barcode: row.barcode ?? null,
  reorderPoint: row.reorderPoint ?? null,
  reorderQuantity: row.reorderQuantity ?? null,
});

/** An import's updates as the products' writes take them, at `at`. */
function updatesOf(plan: ImportPlan, at: number): ImportedUpdate[] {
  return plan.update.map(({ row, current }) => ({
    id: current.id,
    // A column the file lacks keeps the product's value.
    product: {
      ...fields(row),
      costCents: row.costCents,
      sku: row.sku,
      barcode: row.barcode,
      reorderPoint: row.reorderPoint,
      reorderQuantity: row.reorderQuantity,
    },
    at,
  }));
}

/**
 * Updates that change a product's SKU or barcode (may conflict with a product made meanwhile:
 * written in the import's transaction, a 409 undoing all of it), and the others, which cannot
 * fail once the import committed. The others keep the product's codes as they are when written:
 * the file's are those it had when the import was planned, and a code changed since stays.
 */
function splitByCodes(updates: ImportedUpdate[], plan: ImportPlan) {
  const coded: ImportedUpdate[] = [];
  const plain: ImportedUpdate[] = [];
  plan.update.forEach(({ current }, i) => {
    const update = updates[i]!;
    const { sku, barcode } = update.product;
    const changes =
      (sku !== undefined && sku !== current.sku) ||
      (barcode !== undefined && barcode !== current.barcode);
    if (changes) coded.push(update);
    else
      plain.push({ ...update, product: { ...update.product, sku: undefined, barcode: undefined } });
  });
  return { coded, plain };
}

/**
 * An import before the write's transaction opens: its new products' rows made, and on SQLite
 * written already, invisible, in short transactions, with its updates that keep the products'
 * codes (staged), so that the write's transaction only publishes them and other writers wait for
 * a batch at most; the staged updates are applied after the commit, in short transactions
 * (applyStagedUpdates). PostgreSQL writes it all in the write's transaction: its other writers
 * do not wait for another transaction's rows, and its list pages would read every staged row
 * before testing it.
 */
export type ImportStaged =
  { rows: StagedProducts } | { staged: StagedImport; coded: ImportedUpdate[] };

export const importStage = (
  database: { db: DB; dialect: MigrationDialect },
  target: WriteTarget,
  plan: ImportPlan,
  clock: { now: () => number; isGone: () => boolean },
): Stage<ImportStaged> => ({
  prepare: async (at) => {
    const rows = await stageProducts(
      database.dialect,
      target,
      // Made as the staging takes them, between its turns of the event loop.
      (function* () {
        for (const row of plan.create) yield { ...fields(row), image: null, createdAt: at };
      })(),
    );
    const { coded, plain } = splitByCodes(updatesOf(plan, at), plan);
    if (database.dialect !== 'sqlite' || (plan.create.length === 0 && plain.length === 0)) {
      return { rows };
    }
    return { staged: await stageImport(database.db, target, rows, clock, plain), coded };
  },
  discard: async (prepared) => {
    if ('staged' in prepared) await dropImport(database.db, prepared.staged);
  },
});

/** What an import's write did, and on SQLite what is left to apply once it committed. */
export interface ImportWritten {
  created: number;
  updated: number;
  /** The staged import whose updates are applied after the commit (applyStagedUpdates). */
  applying?: StagedImport;
}

/**
 * Writes an import's plan in the write's transaction: its updates (fields only: images stay), and
 * its new products, all created at the write's instant: published if staged, else written. A
 * staged import's other updates are counted here as planned (each matched a product when the
 * import was planned), applied after the commit: applyImport takes off those deleted meanwhile.
 */
export async function writeImport(
  w: CatalogueWrite,
  plan: ImportPlan,
  prepared: ImportStaged,
): Promise<ImportWritten> {
  if ('rows' in prepared) {
    return loadProducts(w, prepared.rows, 'import', updatesOf(plan, w.now));
  }
  const { staged, coded } = prepared;
  const { updated } = await loadProducts(w, [], 'import', coded);
  const created = await publishImport(w, staged);
  return {
    created,
    updated: updated + staged.updates,
    ...(staged.updates > 0 ? { applying: staged } : {}),
  };
}

/**
 * Waits before each new try of a committed import's apply after an error of the database (a
 * writer busy past its timeout, a full disk freed meanwhile): a few seconds in all, well within
 * the apply's lease, after which the sweep would take it over.
 */
const APPLY_RETRIES_MS = [250, 1_000, 4_000];

/**
 * Applies what a committed import left to apply (SQLite), in short transactions, then records its
 * live event: nothing of it can fail for want of a code, and if this process dies midway the
 * sweep applies the rest. Its client is answered once this is done, with what it wrote: the
 * updates planned, less the products found deleted when their batch was applied. It never
 * throws: the import committed, so its client must not be told it failed. An error of the
 * database is tried again from the batch it failed in (the batches before it committed with their
 * staged rows' deletion); if it persists, the rest is left to the sweep once the lease runs out,
 * and counted as planned. So is what the sweep applied if it took over a stalled apply.
 */
export async function applyImport(
  db: DB,
  written: ImportWritten,
  clock: { now: () => number },
  log: FastifyBaseLogger,
): Promise<{ created: number; updated: number }> {
  const { created, updated } = written;
  if (!written.applying) return { created, updated };
  const importId = written.applying.id;
  const tally = { applied: 0, skipped: 0 };
  const counts = ({ skipped }: { skipped: number }) => ({ created, updated: updated - skipped });
  for (let attempt = 0; ; attempt += 1) {
    try {
      return counts(await applyStagedUpdates(db, importId, clock, counts, tally));
    } catch (error) {
      const wait = APPLY_RETRIES_MS[attempt];
      if (wait === undefined) {
        log.error({ err: error, importId }, 'A committed import is left to the sweep to apply');
        return counts(tally);
      }
      log.warn({ err: error, importId }, 'Applying a committed import failed: trying again');
      await sleep(wait);
    }
  }
}
