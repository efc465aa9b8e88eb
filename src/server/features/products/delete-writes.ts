import type { Selectable } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { ProductsTable, StockMovementsTable } from '../../infra/db/schema-products.js';
import type { CatalogueWrite } from '../writes/index.js';
import { lockProducts } from './locks.js';
import { batchesOf, UUID } from './rows.js';
import { flushSearchIndexTurn } from './search/sqlite-merges.js';
import { addTo, addUnits, type UnitChanges } from './stock-levels.js';

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
  /** Where its stock was (absent from entries made before stock was kept per location). */
  levels?: { locationId: string; quantity: number }[];
}

/** Everything of one product, read before it is deleted. */
async function readSnapshot(trx: DB, catalogueId: string, id: string): Promise<DeletedSnapshot> {
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
  const levels = await trx
    .selectFrom('stock_levels')
    .select(['location_id as locationId', 'quantity'])
    .where('product_id', '=', id)
    .execute();
  return { row, movements, levels };
}

/**
 * Deletes all of these products of the catalogue, or none when one of them is not the catalogue's
 * (or does not exist): returns the image keys of the rows deleted and the products, or undefined.
 * Their movements go with them (ON DELETE CASCADE). On PostgreSQL the rows are locked in id order
 * first, so two bulk deletes that share products wait for each other instead of deadlocking.
 */
export async function deleteProducts(
  w: CatalogueWrite,
  ids: string[],
): Promise<DeletedProducts | undefined> {
  if (ids.length === 0 || !ids.every((id) => UUID.test(id))) return undefined;
  const { trx, catalogueId } = w;
  const found = await lockProducts(w, ids)
    .select((eb) => ['id', 'name', eb.fn<number>('length', ['search_key']).as('chars')])
    .execute();
  if (found.length !== new Set(ids).size) return undefined;
  const snapshot = ids.length === 1 ? await readSnapshot(trx, catalogueId, ids[0]!) : undefined;
  await takeAllOf(trx, catalogueId, ids);
  // Taking a search key out of SQLite's index costs what putting it in did: deleted in a bulk
  // load's batches, each but the last (written at the commit) written to the index with a merge
  // step in turns of its own (100 of the longest descriptions in one statement held the event loop
  // 160-230 ms); one product's delete stays one statement. PostgreSQL's one statement fires its
  // statement triggers once.
  const batches =
    w.dialect === 'sqlite' ? [...batchesOf(found, (row) => Number(row.chars))] : [found];
  const imageKeys: string[] = [];
  for (const [i, batch] of batches.entries()) {
    const batchIds = batch.map((row) => row.id);
    const rows = await trx
      .deleteFrom('products')
      .where('catalogue_id', '=', catalogueId)
      .where('id', 'in', batchIds)
      .returning('image_key')
      .execute();
    for (const row of rows) if (row.image_key) imageKeys.push(row.image_key);
    if (i < batches.length - 1) await flushSearchIndexTurn(trx, w.dialect);
  }
  return {
    imageKeys,
    products: found.map(({ id, name }) => ({ id, name })),
    ...(snapshot ? { snapshot } : {}),
  };
}

/** Takes the products' quantities off their locations' totals; their rows go with them. */
async function takeAllOf(trx: DB, catalogueId: string, ids: string[]) {
  const held = await trx
    .selectFrom('stock_levels')
    .select(['location_id', (eb) => eb.fn.sum<number>('quantity').as('units')])
    .where('product_id', 'in', ids)
    .groupBy('location_id')
    .execute();
  const units: UnitChanges = new Map();
  for (const { location_id, units: n } of held) addTo(units, location_id, -Number(n));
  await addUnits(trx, catalogueId, units);
}
