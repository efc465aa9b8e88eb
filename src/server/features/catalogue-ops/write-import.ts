import type { ProductRepository, WithinWrite, WriteTarget } from '../products/index.js';
import type { ImportRow } from './csv-import.js';
import type { ImportPlan } from './import-matching.js';

/**
 * Writes an import's plan in one transaction: its new products, all created at `at`, and its
 * updates (fields only: images stay).
 */
export function writeImport(
  repository: ProductRepository,
  target: WriteTarget,
  plan: ImportPlan,
  at: number,
  within?: WithinWrite<{ created: number; updated: number }>,
): Promise<{ created: number; updated: number }> {
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
  });
  const updates = plan.update.map(({ row, current }) => ({
    id: current.id,
    // A column the file lacks keeps the product's value.
    product: {
      ...fields(row),
      costCents: row.costCents,
      sku: row.sku,
      barcode: row.barcode,
      reorderPoint: row.reorderPoint,
    },
    at,
  }));
  return repository.insertMany(
    target,
    // Made as the repository takes them, between its turns of the event loop.
    (function* () {
      for (const row of plan.create) yield { ...fields(row), image: null, createdAt: at };
    })(),
    'import',
    updates,
    within,
  );
}
