import { loadProducts, stageProducts, type StagedProducts } from '../products/index.js';
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

/** An import's new products, their rows made before the write's transaction opens. */
export const importStage = (target: WriteTarget, plan: ImportPlan): Stage<StagedProducts> => ({
  prepare: (at) =>
    stageProducts(
      target,
      // Made as the staging takes them, between its turns of the event loop.
      (function* () {
        for (const row of plan.create) yield { ...fields(row), image: null, createdAt: at };
      })(),
    ),
  discard: async () => {},
});

/**
 * Writes an import's plan in the write's transaction: its new products (staged), all created at
 * the write's instant, and its updates (fields only: images stay).
 */
export function writeImport(
  w: CatalogueWrite,
  plan: ImportPlan,
  staged: StagedProducts,
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
  return loadProducts(w, staged, 'import', updates);
}
