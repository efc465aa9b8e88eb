import type { Selectable } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { withWriterCache } from '../../infra/db/writer-settings.js';
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
  await takeAllOf(w, ids);
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

/** Products read at a time as they are deleted in batches (a catalogue's, a failed import's). */
const ROWS_A_READ = 100;

/**
 * The ids of the products whose `column` is `value`, read ROWS_A_READ at a time and grouped as a
 * bulk load writes them (batchesOf, by search characters): each batch must be deleted before the
 * next is asked for.
 */
export async function* batchesToDelete(
  db: DB,
  column: 'catalogue_id' | 'import_id',
  value: string,
): AsyncGenerator<string[]> {
  for (;;) {
    const rows = await db
      .selectFrom('products')
      .select((eb) => ['id', eb.fn<number>('length', ['search_key']).as('chars')])
      .where(column, '=', value)
      .limit(ROWS_A_READ)
      .execute();
    for (const batch of batchesOf(rows, (row) => Number(row.chars))) {
      yield batch.map((row) => row.id);
    }
    if (rows.length < ROWS_A_READ) return;
  }
}

/**
 * Merge steps of the search index after each batch, at most (a run of the merging job's, 10,000
 * pages), each bounded: thousands of batches in a row need more than the one a bulk write does, and
 * with at most 16 a batch a merge under way on a higher level still left the smallest one to fill
 * (flushSearchIndexTurn). Most batches stop after one or two, finding nothing to merge.
 */
const MERGE_STEPS_A_BATCH = 200;

/**
 * The writing connection's cache (KiB) while a catalogue's products are deleted. The commit writes
 * to the log every page the transaction left dirty in the cache: with 64 MB of them (sqlite.ts) it
 * took 150 ms of one statement at 20,000 products, with 2 MB 70-110 ms, the batches' statements
 * writing the rest as they go. What it still costs grows with all that the transaction wrote.
 */
const DELETE_CACHE_KIB = 2048;

/**
 * Deletes every product of the catalogue (their movements, stock rows, days and windows going
 * with them) in the caller's transaction, which then deletes the catalogue's row. On SQLite, whose
 * statements hold the event loop, they go in a bulk load's batches, each written to the search
 * index with merge steps in turns of their own: the one cascade of 20,000 products of long
 * descriptions held it 1.9 s. On PostgreSQL the catalogue's cascade stays one statement: the event
 * loop only waits for it.
 */
export async function deleteCatalogueProducts(
  trx: DB,
  catalogueId: string,
  dialect: MigrationDialect,
): Promise<void> {
  if (dialect !== 'sqlite') return;
  await withWriterCache(trx, DELETE_CACHE_KIB, async () => {
    for await (const ids of batchesToDelete(trx, 'catalogue_id', catalogueId)) {
      await trx
        .deleteFrom('products')
        .where('catalogue_id', '=', catalogueId)
        .where('id', 'in', ids)
        .execute();
      await flushSearchIndexTurn(trx, dialect, MERGE_STEPS_A_BATCH);
    }
  });
}

/** Takes the products' quantities off their locations' totals; their rows go with them. */
async function takeAllOf(w: CatalogueWrite, ids: string[]) {
  const held = await w.trx
    .selectFrom('stock_levels')
    .select(['location_id', (eb) => eb.fn.sum<number>('quantity').as('units')])
    .where('product_id', 'in', ids)
    .groupBy('location_id')
    .execute();
  const units: UnitChanges = new Map();
  for (const { location_id, units: n } of held) addTo(units, location_id, -Number(n));
  await addUnits(w, units);
}
