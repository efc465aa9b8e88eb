import { sql, type Kysely } from 'kysely';

/**
 * Products' image keys indexed for the products that have a picture only. The one reader, the
 * sweep of image files nothing refers to, asks for given keys (`in`), which no product without a
 * picture matches; migration 004's index held those too, by null. On PostgreSQL a change of a
 * product's stock writes its row anew with an entry in every index that holds it (its stock is
 * indexed, so the update is never heap-only): one entry fewer for each product without a picture.
 * Made only if missing, the old one dropped only if there: instances starting together may both
 * run this, one after the other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists products_image_key_pictured on products (image_key)
    where image_key is not null`.execute(db);
  await sql`drop index if exists products_image_key`.execute(db);
}
