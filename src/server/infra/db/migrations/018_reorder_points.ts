import type { Kysely } from 'kysely';

/**
 * Reorder points: a catalogue's default, 10 (the spec's low-stock threshold, so nothing changes
 * for a user who sets nothing), and a product's own, which overrides it when set. A product is
 * 'to reorder' when its stock is at or below `coalesce(products.reorder_point,
 * catalogues.reorder_point)`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('catalogues')
    .addColumn('reorder_point', 'integer', (c) => c.notNull().defaultTo(10))
    .execute();
  await db.schema.alterTable('products').addColumn('reorder_point', 'integer').execute();
}
