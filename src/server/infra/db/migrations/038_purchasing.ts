import { sql, type Kysely, type SqlBool } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Buying stock back: a catalogue's suppliers, which of them sell each product (their SKU, their
 * cost, one preferred), purchase orders with their lines, and how many of a product to order when
 * its reorder point is reached (`products.reorder_quantity`, optional).
 *
 * A purchase order's number is its catalogue's next: `purchase_order_numbers` holds the last one
 * given, taken with one upsert that both engines run atomically, so two drafts made at once never
 * share a number, and a deleted draft's number is never given again. A unique index backs it.
 *
 * Lines name their product without a foreign key: a product deleted later leaves the order's
 * history as it was. `received` counts what came in against the line. A stock movement may name
 * the purchase order it received stock for.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema.alterTable('products').addColumn('reorder_quantity', 'integer').execute();
  await db.schema.alterTable('stock_movements').addColumn('purchase_order_id', 'text').execute();

  await db.schema
    .createTable('suppliers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('notes', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('suppliers_catalogue_name')
    .on('suppliers')
    .columns(['catalogue_id', 'name_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('product_suppliers')
    .addColumn('product_id', 'text', (c) =>
      c.notNull().references('products.id').onDelete('cascade'),
    )
    .addColumn('supplier_id', 'text', (c) =>
      c.notNull().references('suppliers.id').onDelete('cascade'),
    )
    .addColumn('catalogue_id', 'text', (c) => c.notNull())
    .addColumn('supplier_sku', 'text')
    .addColumn('cost_cents', 'bigint')
    .addColumn('preferred', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('product_suppliers_pk', ['product_id', 'supplier_id'])
    .execute();
  // One preferred supplier a product at most, whatever writes race.
  await db.schema
    .createIndex('product_suppliers_preferred')
    .on('product_suppliers')
    .column('product_id')
    .unique()
    .where(sql<SqlBool>`preferred = 1`)
    .execute();
  // A supplier's products (a delete cascades through it; the reorder drafts group by it).
  await db.schema
    .createIndex('product_suppliers_supplier')
    .on('product_suppliers')
    .columns(['supplier_id', 'product_id'])
    .execute();

  await db.schema
    .createTable('purchase_order_numbers')
    .addColumn('catalogue_id', 'text', (c) =>
      c.primaryKey().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('purchase_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('supplier_id', 'text', (c) => c.notNull().references('suppliers.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expected_at', time)
    .addColumn('notes', 'text')
    .addColumn('sent_at', time)
    .addColumn('created_by', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('purchase_orders_catalogue_number')
    .on('purchase_orders')
    .columns(['catalogue_id', 'number'])
    .unique()
    .execute();
  // A supplier's orders: whether it may be deleted.
  await db.schema
    .createIndex('purchase_orders_supplier')
    .on('purchase_orders')
    .columns(['supplier_id'])
    .execute();

  await db.schema
    .createTable('purchase_order_lines')
    .addColumn('purchase_order_id', 'text', (c) =>
      c.notNull().references('purchase_orders.id').onDelete('cascade'),
    )
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('catalogue_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_cost_cents', 'bigint', (c) => c.notNull())
    .addColumn('received', 'integer', (c) => c.notNull().defaultTo(0))
    // Whether the order is still open (ordered or partially received): what is on order.
    .addColumn('is_open', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('purchase_order_lines_pk', ['purchase_order_id', 'product_id'])
    .execute();
  // What is on order for a product: its open lines only.
  await db.schema
    .createIndex('purchase_order_lines_on_order')
    .on('purchase_order_lines')
    .columns(['catalogue_id', 'product_id'])
    .where(sql<SqlBool>`is_open = 1`)
    .execute();
}
