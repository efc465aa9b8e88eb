import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { DB } from '../../infra/db/handle.js';
import {
  dropImport,
  loadProducts,
  publishImport,
  stageImport,
  stageProducts,
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

/**
 * An import's new products before the write's transaction opens: their rows made, and on SQLite
 * written already, invisible, in short transactions (staged), so that the write's transaction
 * only publishes them and other writers wait for a batch at most. PostgreSQL writes them in the
 * write's transaction: its other writers do not wait for another transaction's inserts, and its
 * list pages would read every staged row before testing it.
 */
export type ImportStaged = { rows: StagedProducts } | { staged: StagedImport };

export const importStage = (
  database: { db: DB; dialect: MigrationDialect },
  target: WriteTarget,
  plan: ImportPlan,
  clock: { now: () => number; isGone: () => boolean },
): Stage<ImportStaged> => ({
  prepare: async (at) => {
    const rows = await stageProducts(
      target,
      // Made as the staging takes them, between its turns of the event loop.
      (function* () {
        for (const row of plan.create) yield { ...fields(row), image: null, createdAt: at };
      })(),
    );
    if (database.dialect !== 'sqlite' || plan.create.length === 0) return { rows };
    return { staged: await stageImport(database.db, target, rows, clock) };
  },
  discard: async (prepared) => {
    if ('staged' in prepared) await dropImport(database.db, prepared.staged);
  },
});

/**
 * Writes an import's plan in the write's transaction: its updates (fields only: images stay), and
 * its new products, all created at the write's instant: published if staged, else written.
 */
export async function writeImport(
  w: CatalogueWrite,
  plan: ImportPlan,
  prepared: ImportStaged,
): Promise<{ created: number; updated: number }> {
  const updates = plan.update.map(({ row, current }) => ({
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
    at: w.now,
  }));
  if ('rows' in prepared) return loadProducts(w, prepared.rows, 'import', updates);
  const { updated } = await loadProducts(w, [], 'import', updates);
  return { created: await publishImport(w, prepared.staged), updated };
}
