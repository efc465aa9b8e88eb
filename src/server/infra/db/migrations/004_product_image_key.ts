import type { Kysely } from 'kysely';

/** The orphan-image sweep asks which stored keys a product still refers to: one lookup each. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('products_image_key').on('products').column('image_key').execute();
}
