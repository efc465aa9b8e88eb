import type { DB } from '../../infra/db/handle.js';
import type { CatalogueWrite } from '../writes/index.js';
import { EDITABLE, shownValue, type EditableField, type PictureChange } from './changes.js';
import { codeKeys, givenCodesOfLocations, type CodeKeys } from './codes.js';
import { searchKey } from './keys.js';
import { recordMovements } from './movements.js';
import { adjustStock } from './stock-writes.js';
import { addTo, addUnits, putIn, type UnitChanges } from './stock-levels.js';
import { trackReorderCrossings } from './reorder.js';
import { COLUMNS, type ProductRow } from './rows.js';
import { insertTags, replaceTags, textColumns } from './write-helpers.js';
import type { DeletedSnapshot } from './delete-writes.js';
import { visibleProduct } from '../../infra/db/visible-products.js';

/** The note of a movement an undo made: the history tells it from one made by hand. */
const UNDO_NOTE = 'Undo';

export type Reversal =
  | { outcome: 'done'; row: ProductRow; movementId?: number }
  | { outcome: 'missing' }
  | { outcome: 'below-zero' }
  | { outcome: 'changed'; fields: string[] }
  | { outcome: 'taken'; code: 'SKU' | 'barcode'; value: string }
  | { outcome: 'located'; code: 'SKU' | 'barcode'; value: string };

/*
 * The products' side of undoing a change, each in the undo's write (the one that records its
 * entry): a movement is recorded whenever the stock changes, like any other write's, an
 * adjustment (or an edit's) noted as an undo.
 */

/** Moves the stock by `delta` at a location unless that takes it below 0 (or above the maximum). */
export async function moveStock(
  w: CatalogueWrite,
  id: string,
  delta: number,
  locationId?: string,
): Promise<Reversal> {
  const moved = await adjustStock(w, id, { delta, reason: null, note: UNDO_NOTE, locationId });
  if (moved.outcome === 'done') {
    return { outcome: 'done', row: moved.row, movementId: moved.movement.id };
  }
  return { outcome: moved.outcome === 'missing' ? 'missing' : 'below-zero' };
}

/**
 * Puts back the values an edit replaced, field by field, as long as each still holds what the
 * edit wrote: a field changed since is named, and nothing is written.
 */
export async function revertEdit(
  w: CatalogueWrite,
  id: string,
  changes: Record<string, { before: unknown; after: unknown }>,
  picture?: PictureChange,
): Promise<Reversal> {
  const { trx, now } = w;
  const target = { id: w.catalogueId, actorId: w.actorId };
  const current = await find(w, id, true);
  if (!current) return { outcome: 'missing' };
  const fields = Object.keys(changes).filter((field) => field in EDITABLE) as EditableField[];
  const changed = fields.filter((field) =>
    // An entry shows only whether there is a picture: the kept keys tell whether it is the same.
    field === 'image'
      ? current.image_key !== picture?.after.key
      : JSON.stringify(shownValue(field, current)) !== JSON.stringify(changes[field]!.after),
  );
  if (changed.length > 0) return { outcome: 'changed', fields: changed };
  const before = (field: EditableField) => changes[field]?.before;
  const has = (field: EditableField) => fields.includes(field);
  const name = has('name') ? (before('name') as string) : current.name;
  const description = has('description') ? (before('description') as string) : current.description;
  const codes = {
    sku: has('sku') ? (before('sku') as string | null) : current.sku,
    barcode: has('barcode') ? (before('barcode') as string | null) : current.barcode,
  };
  const keys = codeKeys(codes);
  const taken = await takenCode(trx, target.id, id, keys, codes, codeKeys(current));
  if (taken) return taken;
  const values = {
    ...textColumns(name, description, keys),
    price_cents: has('price') ? (before('price') as number) : current.price_cents,
    stock: has('stock') ? (before('stock') as number) : current.stock,
    cost_cents: has('cost') ? (before('cost') as number | null) : current.cost_cents,
    tags: has('tags') ? JSON.stringify(before('tags')) : current.tags,
    reorder_point: has('reorderPoint')
      ? (before('reorderPoint') as number | null)
      : current.reorder_point,
    reorder_quantity: has('reorderQuantity')
      ? (before('reorderQuantity') as number | null)
      : current.reorder_quantity,
    ...(picture && has('image')
      ? {
          image_key: picture.before.key,
          image_width: picture.before.width,
          image_height: picture.before.height,
        }
      : {}),
    updated_at: now,
    ...codes,
  };
  await trx
    .updateTable('products')
    .set({
      ...values,
      ...keys,
      search_key: searchKey(name, description, [keys.sku_key, keys.barcode_key]),
      updated_by: target.actorId,
    })
    .where('catalogue_id', '=', target.id)
    .where('id', '=', id)
    .execute();
  if (values.tags !== current.tags) await replaceTags(trx, target.id, [{ id, tags: values.tags }]);
  if (values.stock !== current.stock) {
    const movement = { productId: id, oldStock: current.stock, newStock: values.stock, at: now };
    const undone = { ...movement, source: 'edit' as const, note: UNDO_NOTE };
    await recordMovements(w, [undone]);
    await trackReorderCrossings(trx, target.id, [id], now);
  }
  const { search_key: _s, sku_key: _k, barcode_key: _b, ...shown } = { ...values, ...keys };
  return { outcome: 'done', row: { ...current, ...shown } };
}

/** Puts a deleted product back as it was: its id, fields, codes, tags, image and history. */
export async function restoreDeleted(
  w: CatalogueWrite,
  snapshot: DeletedSnapshot,
): Promise<Reversal> {
  const { trx, now } = w;
  const target = { id: w.catalogueId, actorId: w.actorId };
  const { row, movements } = snapshot;
  const codes = { sku: row.sku, barcode: row.barcode };
  const taken = await takenCode(trx, target.id, row.id, row, codes);
  if (taken) return taken;
  await trx
    .insertInto('products')
    .values({ ...row, catalogue_id: target.id })
    .execute();
  await insertTags(trx, target.id, [row]);
  // Their ids are kept when still free, so ids keep telling the order things happened in. SQLite
  // may have given a deleted product's last ids to new movements (an integer primary key reuses
  // the highest): then they get new ones, inserted in their order.
  const ids = movements.map((movement) => movement.id);
  const idsTaken =
    ids.length > 0 &&
    (await trx
      .selectFrom('stock_movements')
      .select('id')
      .where('id', 'in', ids)
      .executeTakeFirst()) !== undefined;
  for (const { id, ...movement } of movements) {
    await trx
      .insertInto('stock_movements')
      .values({ ...movement, ...(idsTaken ? {} : { id }), catalogue_id: target.id })
      .execute();
  }
  // Its top movers' windows marked, whatever the floor: a floor lowered while its window was read
  // (SQLite) finds what grew meanwhile by the movements' ids, which these may keep. A marked
  // window below the floor is only one more entry of the index (reports/windows.ts).
  await trx
    .updateTable('product_windows')
    .set({ top: 1 })
    .where('product_id', '=', row.id)
    .execute();
  await restoreLevels(w, snapshot);
  await trackReorderCrossings(trx, target.id, [row.id], now);
  const restored = await find(w, row.id);
  return { outcome: 'done', row: restored! };
}

/**
 * Puts a restored product's stock back where it was, in the locations still there; the rest (and
 * all of it, for a product deleted before stock was kept per location) in the default location.
 */
async function restoreLevels(w: CatalogueWrite, snapshot: DeletedSnapshot) {
  const { trx, catalogueId } = w;
  const productId = snapshot.row.id;
  const wanted = snapshot.levels ?? [];
  const ids = wanted.map((level) => level.locationId);
  const present = new Set(
    ids.length === 0
      ? []
      : (
          await trx
            .selectFrom('locations')
            .select('id')
            .where('catalogue_id', '=', catalogueId)
            .where('id', 'in', ids)
            .execute()
        ).map((location) => location.id),
  );
  const levels = wanted.filter((level) => present.has(level.locationId) && level.quantity > 0);
  const placed = levels.reduce((sum, level) => sum + level.quantity, 0);
  const rest = snapshot.row.stock - placed;
  if (rest > 0) levels.push({ locationId: catalogueId, quantity: rest });
  await putIn(
    trx,
    catalogueId,
    levels.map((level) => ({ productId, ...level })),
  );
  const units: UnitChanges = new Map();
  for (const level of levels) addTo(units, level.locationId, level.quantity);
  await addUnits(w, units);
}

/**
 * The code another product of the catalogue holds now, if any, or that a location took as its
 * code meanwhile (of those the undo gives back: `kept` are the product's codes now).
 */
async function takenCode(
  trx: DB,
  catalogueId: string,
  id: string,
  keys: CodeKeys,
  codes: { sku: string | null; barcode: string | null },
  kept?: CodeKeys,
): Promise<Reversal | undefined> {
  for (const [column, code, value] of [
    ['sku_key', 'SKU', codes.sku],
    ['barcode_key', 'barcode', codes.barcode],
  ] as const) {
    const key = keys[column];
    if (key === null || value === null) continue;
    const other = await trx
      .selectFrom('products')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .where(column, '=', key)
      .where('id', '<>', id)
      .executeTakeFirst();
    if (other) return { outcome: 'taken', code, value };
  }
  const located = await givenCodesOfLocations(trx, catalogueId, keys, kept);
  if (located.sku) return { outcome: 'located', code: 'SKU', value: codes.sku! };
  if (located.barcode) return { outcome: 'located', code: 'barcode', value: codes.barcode! };
  return undefined;
}

async function find(w: CatalogueWrite, id: string, lock = false) {
  const { trx, catalogueId } = w;
  return (
    trx
      .selectFrom('products')
      .select(COLUMNS)
      .where('catalogue_id', '=', catalogueId)
      .where('id', '=', id)
      .where(visibleProduct())
      // SQLite has no FOR UPDATE: its transactions already run one at a time.
      .$if(lock && w.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst()
  );
}
