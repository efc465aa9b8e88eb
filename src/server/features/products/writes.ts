import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import type { MovementSource } from '../../../shared/constants.js';
import type { Selectable } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { ProductsTable, StockMovementsTable } from '../../infra/db/schema.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { codeKeys, rethrowCodeTaken } from './codes.js';
import { nameKey, searchKey } from './keys.js';
import { recordMovements } from './movements.js';
import { trackReorderCrossings } from './reorder.js';
import {
  BATCH_ROWS,
  COLUMNS,
  UUID,
  type ImportedUpdate,
  type NewProduct,
  type ProductChanges,
  type ProductInsert,
  type ProductRow,
  type WithinWrite,
  type WriteTarget,
  writeTarget,
} from './rows.js';
import { bumpCatalogueVersion, insertTags, replaceTags, textColumns } from './write-helpers.js';

/** An edit's outcome: the row after and before it. */
export interface UpdatedProduct {
  row: ProductRow;
  before: ProductRow;
}

/** What a delete removed: the image keys whose files go after the commit, and the products. */
export interface DeletedProducts {
  imageKeys: string[];
  products: { id: string; name: string }[];
  /** One product deleted alone: everything of it, so that the delete can be undone. */
  snapshot?: DeletedSnapshot;
}

/** A deleted product's row and stock history as stored, kept in its activity entry. */
export interface DeletedSnapshot {
  row: Selectable<ProductsTable>;
  movements: Selectable<StockMovementsTable>[];
}

/**
 * Creating, changing and deleting products, each write in one transaction with its movements,
 * tags and the catalogue's catalogue version.
 */
export class ProductWrites {
  constructor(
    private readonly db: DB,
    private readonly dialect: MigrationDialect,
  ) {}

  private row(
    catalogueId: string,
    actorId: string | null,
    product: NewProduct,
    now: number,
  ): ProductInsert & { created_by: string | null; updated_by: string | null } {
    const keys = codeKeys(product);
    return {
      id: randomUUID(),
      catalogue_id: catalogueId,
      created_by: actorId,
      updated_by: actorId,
      ...textColumns(product.name, product.description, keys),
      price_cents: product.priceCents,
      stock: product.stock,
      active: 1,
      image_key: product.image?.key ?? null,
      image_width: product.image?.width ?? null,
      image_height: product.image?.height ?? null,
      tags: JSON.stringify(product.tags ?? []),
      cost_cents: product.costCents ?? null,
      reorder_point: product.reorderPoint ?? null,
      created_at: now,
      updated_at: now,
      sku: product.sku ?? null,
      barcode: product.barcode ?? null,
      ...keys,
    };
  }

  async insert(
    target: WriteTarget | string,
    product: NewProduct,
    now: number,
    within?: WithinWrite<ProductRow>,
  ): Promise<ProductRow> {
    const { id: catalogueId, actorId, confirm } = writeTarget(target);
    const row = this.row(catalogueId, actorId, product, now);
    const {
      search_key: _searchKey,
      sku_key: _skuKey,
      barcode_key: _barcodeKey,
      created_by: _createdBy,
      updated_by: _updatedBy,
      ...stored
    } = row;
    await this.db
      .transaction()
      .execute(async (trx) => {
        await confirm(trx);
        await trx.insertInto('products').values(row).execute();
        await insertTags(trx, catalogueId, [row]);
        const created = { productId: row.id, oldStock: 0, newStock: row.stock, at: now };
        await recordMovements(trx, catalogueId, actorId, [{ ...created, source: 'create' }]);
        await trackReorderCrossings(trx, catalogueId, [row.id], now);
        await bumpCatalogueVersion(trx, catalogueId);
        await within?.(trx, stored);
      })
      .catch(rethrowCodeTaken);
    return stored;
  }

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
      batch.push(this.row(catalogueId, actorId, product, product.createdAt));
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

  /**
   * Applies the changes and returns the new row with the image key it replaced (null when the
   * image stayed or there was none). The row is locked while read and written, so derived columns
   * stay in step with concurrent edits.
   */
  async update(
    target: WriteTarget | string,
    id: string,
    changes: ProductChanges,
    now: number,
    within?: WithinWrite<UpdatedProduct>,
  ): Promise<UpdatedProduct | undefined> {
    if (!UUID.test(id)) return undefined;
    const { id: catalogueId, actorId, confirm } = writeTarget(target);
    const updating = this.db.transaction().execute(async (trx) => {
      await confirm(trx);
      const current = await trx
        .selectFrom('products')
        .select(COLUMNS)
        .where('catalogue_id', '=', catalogueId)
        .where('id', '=', id)
        // SQLite has no FOR UPDATE: its transactions already run one at a time.
        .$if(this.dialect === 'postgres', (query) => query.forUpdate())
        .executeTakeFirst();
      if (!current) return undefined;
      const name = changes.name ?? current.name;
      const description = changes.description ?? current.description;
      const codes = {
        sku: changes.sku === undefined ? current.sku : changes.sku,
        barcode: changes.barcode === undefined ? current.barcode : changes.barcode,
      };
      const keys = codeKeys(codes);
      const values = {
        name,
        name_key: nameKey(name),
        description,
        price_cents: changes.priceCents ?? current.price_cents,
        stock: changes.stock ?? current.stock,
        image_key: changes.image ? changes.image.key : current.image_key,
        image_width: changes.image ? changes.image.width : current.image_width,
        image_height: changes.image ? changes.image.height : current.image_height,
        tags: changes.tags ? JSON.stringify(changes.tags) : current.tags,
        cost_cents: changes.costCents === undefined ? current.cost_cents : changes.costCents,
        reorder_point:
          changes.reorderPoint === undefined ? current.reorder_point : changes.reorderPoint,
        updated_at: now,
        ...codes,
      };
      const search_key = searchKey(name, description, [keys.sku_key, keys.barcode_key]);
      await trx
        .updateTable('products')
        .set({ ...values, ...keys, search_key, updated_by: actorId })
        .where('catalogue_id', '=', catalogueId)
        .where('id', '=', id)
        .execute();
      if (values.tags !== current.tags)
        await replaceTags(trx, catalogueId, { id, tags: values.tags });
      if (values.stock !== current.stock) {
        const edit = { productId: id, oldStock: current.stock, newStock: values.stock, at: now };
        await recordMovements(trx, catalogueId, actorId, [{ ...edit, source: 'edit' }]);
      }
      await trackReorderCrossings(trx, catalogueId, [id], now);
      await bumpCatalogueVersion(trx, catalogueId);
      const row: ProductRow = { ...current, ...values };
      const updated = { row, before: current };
      await within?.(trx, updated);
      return updated;
    });
    return updating.catch(rethrowCodeTaken);
  }

  /** Everything of one product, read before it is deleted. */
  private async snapshot(trx: DB, catalogueId: string, id: string): Promise<DeletedSnapshot> {
    const row = await trx
      .selectFrom('products')
      .selectAll()
      .where('catalogue_id', '=', catalogueId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const movements = await trx
      .selectFrom('stock_movements')
      .selectAll()
      .where('catalogue_id', '=', catalogueId)
      .where('product_id', '=', id)
      .orderBy('id')
      .execute();
    return { row, movements };
  }

  /** Deletes the row; returns its image key (or null), or undefined when there was no such row. */
  async delete(
    target: WriteTarget | string,
    id: string,
  ): Promise<{ imageKey: string | null } | undefined> {
    const deleted = await this.deleteMany(target, [id]);
    return deleted && { imageKey: deleted.imageKeys[0] ?? null };
  }

  /**
   * Deletes all of these products of the catalogue, or none when one of them is not the catalogue's (or
   * does not exist): returns the image keys of the rows deleted, or undefined. Their movements go
   * with them (ON DELETE CASCADE). On PostgreSQL the rows are locked in id order first, so two
   * bulk deletes that share products wait for each other instead of deadlocking.
   */
  async deleteMany(
    target: WriteTarget | string,
    ids: string[],
    within?: WithinWrite<DeletedProducts>,
  ): Promise<DeletedProducts | undefined> {
    if (ids.length === 0 || !ids.every((id) => UUID.test(id))) return undefined;
    const { id: catalogueId, confirm } = writeTarget(target);
    return this.db.transaction().execute(async (trx) => {
      await confirm(trx);
      const found = await trx
        .selectFrom('products')
        .select(['id', 'name'])
        .where('catalogue_id', '=', catalogueId)
        .where('id', 'in', ids)
        .orderBy('id')
        // SQLite has no FOR UPDATE: its transactions already run one at a time.
        .$if(this.dialect === 'postgres', (query) => query.forUpdate())
        .execute();
      if (found.length !== new Set(ids).size) return undefined;
      const snapshot =
        ids.length === 1 ? await this.snapshot(trx, catalogueId, ids[0]!) : undefined;
      const rows = await trx
        .deleteFrom('products')
        .where('catalogue_id', '=', catalogueId)
        .where('id', 'in', ids)
        .returning('image_key')
        .execute();
      await bumpCatalogueVersion(trx, catalogueId);
      const deleted = {
        imageKeys: rows.flatMap((row) => (row.image_key ? [row.image_key] : [])),
        products: found,
        ...(snapshot ? { snapshot } : {}),
      };
      await within?.(trx, deleted);
      return deleted;
    });
  }
}
