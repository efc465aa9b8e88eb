import { sql } from 'kysely';
import type { CatalogueWrite } from '../writes/index.js';
import { changedFields } from './changes.js';
import { codeKeys, refuseLocationCodes, rethrowCodeTaken } from './codes.js';
import { nameKey, searchKey } from './keys.js';
import { lastMovedAtOnceMovedAt, recordMovements } from './movements.js';
import {
  markedAtCreation,
  markOnceWritten,
  onReorderPointsReached,
  readCataloguePoint,
} from './reorder.js';
import { COLUMNS, UUID, type NewProduct, type ProductChanges, type ProductRow } from './rows.js';
import { insertTags, newProductRow, replaceTags } from './write-helpers.js';
import { visibleProduct } from '../../infra/db/visible-products.js';

/** An edit's outcome: the row after and before it. */
export interface UpdatedProduct {
  row: ProductRow;
  before: ProductRow;
}

/**
 * Creates one product in the write's transaction, with its tags and its first movement. Bulk loads
 * are import-writes.ts', deletes delete-writes.ts'.
 */
export async function insertProduct(w: CatalogueWrite, product: NewProduct): Promise<ProductRow> {
  const { trx, catalogueId, actorId, now } = w;
  const row = newProductRow(catalogueId, actorId, product, now);
  const {
    search_key: _searchKey,
    sku_key: _skuKey,
    barcode_key: _barcodeKey,
    created_by: _createdBy,
    updated_by: _updatedBy,
    ...stored
  } = row;
  await refuseLocationCodes(trx, catalogueId, row);
  const point = await readCataloguePoint(trx, catalogueId);
  const { rows, crossed } = markedAtCreation([row], point, now);
  await trx.insertInto('products').values(rows).execute().catch(rethrowCodeTaken);
  await insertTags(trx, catalogueId, [row]);
  const created = { productId: row.id, oldStock: 0, newStock: row.stock, at: now };
  await recordMovements(w, [{ ...created, source: 'create' }]);
  await onReorderPointsReached(trx, catalogueId, crossed, now);
  return stored;
}

/**
 * Applies the changes and returns the new row and the one before (undefined when there is no such
 * product). The row is locked while read and written, so derived columns stay in step with
 * concurrent edits.
 */
export async function updateProduct(
  w: CatalogueWrite,
  id: string,
  changes: ProductChanges,
): Promise<UpdatedProduct | undefined> {
  if (!UUID.test(id)) return undefined;
  const { trx, catalogueId, actorId, now } = w;
  const current = await trx
    .selectFrom('products')
    .select([...COLUMNS, 'reorder_crossed_at'])
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', id)
    .where(visibleProduct())
    // SQLite has no FOR UPDATE: its transactions already run one at a time.
    .$if(w.dialect === 'postgres', (query) => query.forUpdate())
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
    reorder_quantity:
      changes.reorderQuantity === undefined ? current.reorder_quantity : changes.reorderQuantity,
    updated_at: now,
    ...codes,
  };
  const { reorder_crossed_at: _mark, ...before } = current;
  // Nothing to change: the row stays as it is (its time and author too), and the caller records
  // nothing either (changedFields is empty).
  if (Object.keys(changedFields(before, { ...before, ...values })).length === 0) {
    return { row: before, before };
  }
  await refuseLocationCodes(trx, catalogueId, keys, codeKeys(current));
  const search_key = searchKey(name, description, [keys.sku_key, keys.barcode_key]);
  // When it last moved and its mark in the same statement: a second one would write the row again.
  const { mark, crossed } = markOnceWritten(
    { ...current, ...values },
    await readCataloguePoint(trx, catalogueId),
    now,
  );
  const moved = values.stock !== current.stock;
  await trx
    .updateTable('products')
    .set({
      ...values,
      ...keys,
      search_key,
      updated_by: actorId,
      reorder_crossed_at: mark,
      ...(moved ? { last_moved_at: lastMovedAtOnceMovedAt(sql`cast(${now} as bigint)`) } : {}),
    })
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', id)
    .execute()
    .catch(rethrowCodeTaken);
  if (values.tags !== current.tags)
    await replaceTags(trx, catalogueId, [{ id, tags: values.tags }]);
  if (moved) {
    const edit = { productId: id, oldStock: current.stock, newStock: values.stock, at: now };
    await recordMovements(w, [{ ...edit, source: 'edit' }]);
  }
  if (crossed) await onReorderPointsReached(trx, catalogueId, [crossed], now);
  return { row: { ...before, ...values }, before };
}
