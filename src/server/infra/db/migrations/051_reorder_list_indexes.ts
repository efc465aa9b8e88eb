import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/** The list's orders (cursor.ts): each index's name and the column it is sorted by. */
const ORDERS = [
  ['created', 'created_at'],
  ['name', 'name_key'],
  ['price', 'price_cents'],
  ['stock', 'stock'],
] as const;

/**
 * The products to reorder in each of the list's orders, so that a page of the list filtered to
 * reorder reads that page from its index and stops, however many products are due. Migration
 * 036's indexes hold the rule's two parts in the report's order; read for the list, every product
 * due was read and sorted (18 ms a page at 100,000 products). No index can hold the catalogue's
 * part by the rule itself, whose point is the catalogue's row; each holds the products whose
 * reorder mark is set, which every write keeps in step with the rule (trackReorderCrossings).
 * On SQLite the import's id ends each one, as the other list orders' do (migration 044). Made
 * only if missing: instances starting together may both run this, one after the other.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const last = dialect === 'sqlite' ? ', import_id' : '';
  for (const [name, column] of ORDERS) {
    await sql`create index if not exists ${sql.id(`products_reorder_by_${name}`)} on products
      (catalogue_id, ${sql.id(column)}, id${sql.raw(last)})
      where reorder_crossed_at is not null`.execute(db);
  }
}
