import type { Kysely } from 'kysely';

/**
 * The activity log grows into a record of every change with its undo:
 * - `source`: where the change was made (scan, stepper, form, import, api);
 * - `undoes`: on an undo entry, the entry it undid. Unique, so of two undos of one entry racing
 *   on PostgreSQL the second insert waits for the first and then fails: exactly one wins;
 * - `snapshot`: a deleted product's row and stock history as JSON, what an undo puts back;
 * - `image_key`: the picture of a deleted product, whose files stay while the delete can be
 *   undone (the orphan sweep keeps keys named here by an entry younger than 7 days).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('activity_entries')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('api'))
    .execute();
  await db.schema.alterTable('activity_entries').addColumn('undoes', 'integer').execute();
  await db.schema.alterTable('activity_entries').addColumn('snapshot', 'text').execute();
  await db.schema.alterTable('activity_entries').addColumn('image_key', 'text').execute();
  await db.schema
    .createIndex('activity_entries_undoes')
    .unique()
    .on('activity_entries')
    .column('undoes')
    .execute();
  await db.schema
    .createIndex('activity_entries_product')
    .on('activity_entries')
    .columns(['catalogue_id', 'product_id', 'id'])
    .execute();
  await db.schema
    .createIndex('activity_entries_image')
    .on('activity_entries')
    .column('image_key')
    .execute();
}
