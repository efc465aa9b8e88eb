import { setImmediate } from 'node:timers/promises';
import type { MovementSource } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { writeCatalogue, type CatalogueWrite } from '../writes/index.js';
import { codeKeys, rethrowCodeTaken } from './codes.js';
import { recordMovements } from './movements.js';
import { trackReorderCrossings } from './reorder.js';
import { BATCH_ROWS, type ImportedUpdate, type NewProduct, type ProductInsert } from './rows.js';
import { insertTags, newProductRow, replaceTags, textColumns } from './write-helpers.js';

/** New products' rows, made before their write and grouped as it inserts them. */
export type StagedProducts = ProductInsert[][];

/**
 * Makes the rows of new products, BATCH_ROWS at a time with a turn of the event loop between
 * batches (folding names and descriptions for search costs CPU too), before the transaction opens.
 */
export async function stageProducts(
  target: { id: string; actorId: string | null },
  products: Iterable<NewProduct & { createdAt: number }>,
): Promise<StagedProducts> {
  const batches: ProductInsert[][] = [[]];
  for (const product of products) {
    let batch = batches.at(-1)!;
    if (batch.length === BATCH_ROWS) {
      await setImmediate();
      batches.push((batch = []));
    }
    batch.push(newProductRow(target.id, target.actorId, product, product.createdAt));
  }
  return batches;
}

/**
 * Bulk loading (imports, benchmarks) in the write's transaction: rows written over existing
 * products, then new products with their movement (`source`'s), BATCH_ROWS at a time with a turn
 * of the event loop between batches: other requests are answered meanwhile (on SQLite, reads go to
 * another connection; other writes wait for the commit, without blocking the event loop).
 */
export async function loadProducts(
  w: CatalogueWrite,
  batches: StagedProducts,
  source: MovementSource = 'import',
  updates: ImportedUpdate[] = [],
): Promise<{ created: number; updated: number }> {
  const { trx, catalogueId, actorId } = w;
  let created = 0;
  let updated = 0;
  try {
    for (const [index, update] of updates.entries()) {
      if (await applyImported(w, update)) updated += 1;
      if (index % BATCH_ROWS === BATCH_ROWS - 1) await setImmediate();
    }
    for (const batch of batches) {
      if (batch.length === 0) continue;
      await trx.insertInto('products').values(batch).execute();
      await insertTags(trx, catalogueId, batch);
      await setImmediate();
      const movements = batch.map((row) => ({
        productId: row.id,
        oldStock: 0,
        newStock: row.stock,
        source,
        at: row.created_at,
      }));
      await recordMovements(trx, catalogueId, actorId, movements);
      const at = Math.max(...batch.map((row) => row.created_at));
      const ids = batch.map((row) => row.id);
      await trackReorderCrossings(trx, catalogueId, ids, at);
      created += batch.length;
      await setImmediate();
    }
  } catch (error) {
    rethrowCodeTaken(error);
  }
  return { created, updated };
}

/**
 * Writes an import's row over an existing product: its fields, not its image or history; a
 * change of stock is recorded as an `import` movement from the stock the product had then.
 * False when the product has gone meanwhile.
 */
async function applyImported(w: CatalogueWrite, update: ImportedUpdate) {
  const { trx, catalogueId, actorId } = w;
  const { id, product, at } = update;
  const current = await trx
    .selectFrom('products')
    .select(['stock', 'tags', 'sku', 'barcode'])
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', id)
    .$if(w.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
  if (!current) return false;
  const tags = product.tags === undefined ? current.tags : JSON.stringify(product.tags);
  const codes = {
    sku: product.sku === undefined ? current.sku : product.sku,
    barcode: product.barcode === undefined ? current.barcode : product.barcode,
  };
  const keys = codeKeys(codes);
  await trx
    .updateTable('products')
    .set({
      ...textColumns(product.name, product.description, keys),
      ...codes,
      ...keys,
      price_cents: product.priceCents,
      stock: product.stock,
      tags,
      ...(product.costCents === undefined ? {} : { cost_cents: product.costCents }),
      ...(product.reorderPoint === undefined ? {} : { reorder_point: product.reorderPoint }),
      updated_at: at,
      updated_by: actorId,
    })
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', id)
    .execute();
  if (tags !== current.tags) await replaceTags(trx, catalogueId, { id, tags });
  if (product.stock !== current.stock) {
    const movement = { productId: id, oldStock: current.stock, newStock: product.stock, at };
    await recordMovements(trx, catalogueId, actorId, [{ ...movement, source: 'import' }]);
  }
  await trackReorderCrossings(trx, catalogueId, [id], at);
  return true;
}

/**
 * A bulk load outside any request (benchmarks, tools, tests): new products with their movements
 * (`source`'s), in one write that bumps the catalogue's version and records no activity.
 */
export async function bulkLoad(
  database: { db: DB; dialect: MigrationDialect },
  target: string | { id: string; actorId: string | null },
  products: Iterable<NewProduct & { createdAt: number }>,
  source: MovementSource = 'import',
): Promise<{ created: number; updated: number }> {
  const writer = typeof target === 'string' ? { id: target, actorId: null } : target;
  const staged = await stageProducts(writer, products);
  const { answer } = await writeCatalogue(database, writer, Date.now(), async (w) => {
    const body = await loadProducts(w, staged, source);
    return { answer: { status: 200, body } };
  });
  return answer.body;
}
