import { setImmediate } from 'node:timers/promises';
import type { MovementSource } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { codeKeys, rethrowCodeTaken } from './codes.js';
import { recordMovements } from './movements.js';
import { trackReorderCrossings } from './reorder.js';
import {
  BATCH_ROWS,
  type ImportedUpdate,
  type NewProduct,
  type ProductInsert,
  type WithinWrite,
  type WriteTarget,
  writeTarget,
} from './rows.js';
import {
  bumpCatalogueVersion,
  insertTags,
  newProductRow,
  replaceTags,
  textColumns,
} from './write-helpers.js';

/** Bulk loading: an import's new products and its rows written over existing ones. */
export class ImportWrites {
  constructor(
    private readonly db: DB,
    private readonly dialect: MigrationDialect,
  ) {}

  /**
   * Bulk loading (imports, benchmarks): every product with its movement (an import's), in one
   * transaction, so nothing is written if any statement fails or the process dies before the
   * commit. Rows are prepared first, then written BATCH_ROWS at a time with a turn of the event
   * loop between batches: other requests are answered meanwhile (on SQLite, reads go to another
   * connection; other writes wait for the commit, without blocking the event loop).
   */
  async insertMany(
    target: WriteTarget | string,
    products: Iterable<NewProduct & { createdAt: number }>,
    source: MovementSource = 'import',
    updates: ImportedUpdate[] = [],
    within?: WithinWrite<{ created: number; updated: number }>,
  ): Promise<{ created: number; updated: number }> {
    const { id: catalogueId, actorId, confirm } = writeTarget(target);
    const batches: ProductInsert[][] = [[]];
    for (const product of products) {
      let batch = batches.at(-1)!;
      if (batch.length === BATCH_ROWS) {
        // Folding names and descriptions for search costs CPU too.
        await setImmediate();
        batches.push((batch = []));
      }
      batch.push(newProductRow(catalogueId, actorId, product, product.createdAt));
    }
    let count = 0;
    let updated = 0;
    await this.db
      .transaction()
      .execute(async (trx) => {
        await confirm(trx);
        for (const [index, update] of updates.entries()) {
          if (await this.applyImported(trx, catalogueId, actorId, update)) updated += 1;
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
          count += batch.length;
          await setImmediate();
        }
        await bumpCatalogueVersion(trx, catalogueId);
        await within?.(trx, { created: count, updated });
      })
      .catch(rethrowCodeTaken);
    return { created: count, updated };
  }

  /**
   * Writes an import's row over an existing product: its fields, not its image or history; a
   * change of stock is recorded as an `import` movement from the stock the product had then.
   * False when the product has gone meanwhile.
   */
  private async applyImported(
    trx: DB,
    catalogueId: string,
    actorId: string | null,
    update: ImportedUpdate,
  ) {
    const { id, product, at } = update;
    const current = await trx
      .selectFrom('products')
      .select(['stock', 'tags', 'sku', 'barcode'])
      .where('catalogue_id', '=', catalogueId)
      .where('id', '=', id)
      .$if(this.dialect === 'postgres', (query) => query.forUpdate())
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
}
