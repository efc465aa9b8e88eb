import { sql, type Kysely, type SqlBool } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Stock counts: a session over a location (with its sub-locations), a tag or the whole catalogue,
 * and its lines, one per product and location counted.
 *
 * - `counts.scope_key` names what a count covers (`location:<id>`, `tag:<folded tag>`,
 *   `catalogue`); a unique index over the counts still open or in review keeps one such count per
 *   scope, also when two starts race.
 * - A catalogue's counts are listed newest first down (catalogue_id, created_at, id).
 * - `count_lines` is keyed by (count, product, location): a count's lines are read in that order,
 *   page by page, and a line is found by one probe. `expected` is the quantity at the location
 *   when the line was first counted. Lines go with their count and with their product.
 * - `stock_movements.count_id` names the count a posting's movements came from; its undo reads
 *   them back down a partial index that holds only those.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('counts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope_kind', 'text', (c) =>
      c.notNull().check(sql`scope_kind in ('location', 'tag', 'catalogue')`),
    )
    .addColumn('scope_location_id', 'text')
    .addColumn('scope_tag', 'text')
    .addColumn('scope_key', 'text', (c) => c.notNull())
    .addColumn('blind', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('open', 'review', 'posted', 'cancelled')`),
    )
    .addColumn('created_by', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addColumn('posted_at', time)
    .addColumn('lines', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('counts_catalogue_newest')
    .on('counts')
    .columns(['catalogue_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('counts_one_active_per_scope')
    .on('counts')
    .columns(['catalogue_id', 'scope_key'])
    .unique()
    .where(sql<SqlBool>`status in ('open', 'review')`)
    .execute();

  await db.schema
    .createTable('count_lines')
    .addColumn('count_id', 'text', (c) => c.notNull().references('counts.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (c) =>
      c.notNull().references('products.id').onDelete('cascade'),
    )
    .addColumn('location_id', 'text', (c) => c.notNull())
    .addColumn('catalogue_id', 'text', (c) => c.notNull())
    .addColumn('expected', 'integer', (c) => c.notNull())
    .addColumn('counted', 'integer', (c) => c.notNull())
    .addColumn('counted_by', 'text')
    .addColumn('counted_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('count_lines_pk', ['count_id', 'product_id', 'location_id'])
    .execute();
  // A product's delete removes its lines: one probe each, not a read of every count's lines.
  await db.schema
    .createIndex('count_lines_product')
    .on('count_lines')
    .columns(['product_id'])
    .execute();

  await db.schema.alterTable('stock_movements').addColumn('count_id', 'text').execute();
  await db.schema
    .createIndex('stock_movements_count')
    .on('stock_movements')
    .columns(['count_id', 'id'])
    .where(sql<SqlBool>`count_id is not null`)
    .execute();
}
