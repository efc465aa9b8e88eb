import type { Kysely } from 'kysely';

/**
 * The pixel size of a product's stored image (after the pipeline's bounding), so that the detail
 * page can describe its files to the browser (srcset widths, width and height) before they load.
 * Null for products without an image and for images stored before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('products').addColumn('image_width', 'integer').execute();
  await db.schema.alterTable('products').addColumn('image_height', 'integer').execute();
}
