import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

const SOURCES = ['create', 'edit', 'adjustment', 'count', 'import'];
const REASONS = ['received', 'sold', 'damaged', 'returned', 'counted', 'other'];
const list = (values: string[]) => sql.join(values.map((value) => sql.lit(value)));

/**
 * The list as a stock tool:
 *
 * - Movements gain a `reason` (null when none was given) and the source `count` (the stock set to
 *   a counted number). SQLite cannot change a CHECK constraint in place, so there the table is
 *   rebuilt with its rows and ids; nothing refers to it, so the rebuild touches no other table.
 * - Products gain `tags` (a JSON array of the tags as written, read with the row) and `cost_cents`
 *   (null when unset). `product_tags` holds one row per product and folded tag, so a tag filter is
 *   one index range; it goes with its product.
 * - The (owner, stock, id, price) index that answers the summary gains the cost, so the summary
 *   still reads the index alone.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table stock_movements drop constraint stock_movements_source_check`.execute(db);
    await sql`alter table stock_movements add constraint stock_movements_source_check
      check (source in (${list(SOURCES)}))`.execute(db);
    await sql`alter table stock_movements add column reason text
      constraint stock_movements_reason_check check (reason in (${list(REASONS)}))`.execute(db);
  } else {
    await rebuildSqliteMovements(db);
  }
  await db.schema
    .createIndex('stock_movements_product_reason')
    .on('stock_movements')
    .columns(['product_id', 'reason', 'id'])
    .execute();

  await db.schema
    .alterTable('products')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.alterTable('products').addColumn('cost_cents', 'bigint').execute();
  await db.schema
    .createTable('product_tags')
    .addColumn('product_id', 'text', (c) =>
      c.notNull().references('products.id').onDelete('cascade'),
    )
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('tag_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('product_tags_pkey', ['product_id', 'tag_key'])
    .execute();
  await db.schema
    .createIndex('product_tags_owner_tag')
    .on('product_tags')
    .columns(['owner_id', 'tag_key', 'product_id'])
    .execute();

  await db.schema.dropIndex('products_owner_stock').execute();
  await db.schema
    .createIndex('products_owner_stock')
    .on('products')
    .columns(['owner_id', 'stock', 'id', 'price_cents', 'cost_cents'])
    .execute();
}

async function rebuildSqliteMovements(db: Kysely<unknown>) {
  await sql`create table stock_movements_next (
    id integer primary key,
    product_id text not null references products (id) on delete cascade,
    owner_id text not null references users (id) on delete cascade,
    created_at integer not null,
    old_stock integer not null,
    new_stock integer not null,
    delta integer not null,
    source text not null check (source in (${list(SOURCES)})),
    note text,
    reason text check (reason in (${list(REASONS)}))
  )`.execute(db);
  await sql`insert into stock_movements_next
      (id, product_id, owner_id, created_at, old_stock, new_stock, delta, source, note)
    select id, product_id, owner_id, created_at, old_stock, new_stock, delta, source, note
    from stock_movements`.execute(db);
  await sql`drop table stock_movements`.execute(db);
  await sql`alter table stock_movements_next rename to stock_movements`.execute(db);
  await sql`create index stock_movements_product on stock_movements (product_id, id)`.execute(db);
  await sql`create index stock_movements_owner on stock_movements (owner_id)`.execute(db);
}
