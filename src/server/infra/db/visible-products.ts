import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * Whether a product is visible: written by no import, or by one that is no longer pending
 * (migration 037). Every read of products keeps only these rows, so an import's products
 * staged in short transactions appear all at once when it publishes (deletes its pending row),
 * and never if it fails. `products` is the table's name or alias in the statement.
 *
 * The pending imports are a handful of rows read once per statement (an uncorrelated `not in`
 * on both engines); a row written by no import is kept at its first test.
 */
export function visibleProduct(products = 'products'): RawBuilder<SqlBool> {
  const importId = sql.ref(`${products}.import_id`);
  return sql<SqlBool>`(${importId} is null or ${importId} not in (select id from pending_imports))`;
}

/**
 * Whether the product a row names (its `column`, a movement's `product_id`) is visible: not one of
 * a pending import's, read once per statement from the partial index of imported products.
 */
export function ofVisibleProduct(column: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} not in (select id from products
    where import_id in (select id from pending_imports))`;
}

/**
 * `visibleProduct` for a statement that reads an index alone (a summary): the pending imports'
 * products by rowid (SQLite; every index holds it) or id, read once per statement from the
 * partial index of imported products, so no row of the table is read to test its import.
 */
export function visibleByKey(dialect: 'sqlite' | 'postgres'): RawBuilder<SqlBool> {
  const key = sql.raw(dialect === 'sqlite' ? 'rowid' : 'id');
  return sql<SqlBool>`${key} not in (select ${key} from products
    where import_id in (select id from pending_imports))`;
}
