import type { DB } from '../../../src/server/infra/db/handle.js';

/**
 * Hides products as a pending import's, by hand: one pending row with a live lease in the first
 * product's catalogue, named by the products. What the tests check is the reads, not the import.
 */
export async function makePending(db: DB, ids: string[]) {
  const { catalogue_id: catalogueId } = await db
    .selectFrom('products')
    .select('catalogue_id')
    .where('id', '=', ids[0]!)
    .executeTakeFirstOrThrow();
  const id = `pending-${ids[0]}`;
  const now = Date.now();
  await db
    .insertInto('pending_imports')
    .values({ id, catalogue_id: catalogueId, lease_until: now + 60_000, created_at: now })
    .execute();
  await db.updateTable('products').set({ import_id: id }).where('id', 'in', ids).execute();
  return { id, catalogueId };
}
