import type { DB } from '../../../src/server/infra/db/handle.js';

/**
 * Hides products as a pending import's, by hand: one pending row with a live lease in the first
 * product's catalogue, named by the products. What the tests check is the reads, not the import.
 * Their stock rows are taken out while they change hands and put back once they are pending, as
 * an import stages them: what the locations keep (migrations 061, 066) counts none of them then.
 */
export async function makePending(db: DB, ids: string[]) {
  const { catalogue_id: catalogueId } = await db
    .selectFrom('products')
    .select('catalogue_id')
    .where('id', '=', ids[0]!)
    .executeTakeFirstOrThrow();
  const id = `pending-${ids[0]}`;
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const levels = await trx
      .selectFrom('stock_levels')
      .selectAll()
      .where('product_id', 'in', ids)
      .execute();
    await trx.deleteFrom('stock_levels').where('product_id', 'in', ids).execute();
    await trx
      .insertInto('pending_imports')
      .values({ id, catalogue_id: catalogueId, lease_until: now + 60_000, created_at: now })
      .execute();
    await trx.updateTable('products').set({ import_id: id }).where('id', 'in', ids).execute();
    if (levels.length > 0) await trx.insertInto('stock_levels').values(levels).execute();
  });
  return { id, catalogueId };
}
