import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/** The stock filters' partial-index conditions, as migration 011 froze them. */
const PARTIAL = { low: 'stock + 0 between 1 and 10', out: 'stock + 0 = 0' } as const;

/** The list orders' indexes (migrations 001, 011 and 020): name, then the columns before the import. */
const INDEXES: [name: string, columns: string, where?: string][] = [
  ['products_owner_created', 'catalogue_id, created_at, id'],
  ['products_owner_name', 'catalogue_id, name_key, id'],
  ['products_owner_price', 'catalogue_id, price_cents, id'],
  ['products_owner_stock', 'catalogue_id, stock, id, price_cents, cost_cents, reorder_point'],
  ...(['low', 'out'] as const).flatMap((filter) =>
    (
      [
        ['created', 'created_at'],
        ['name', 'name_key'],
        ['price', 'price_cents'],
      ] as const
    ).map(([name, column]): [string, string, string] => [
      `products_owner_${name}_${filter}`,
      `catalogue_id, ${column}, id`,
      PARTIAL[filter],
    ]),
  ),
];

/**
 * A list page walks its order's index until it has a page of visible rows, past every row of a
 * pending import (migration 037) on the way. SQLite tests the columns an index holds on the index
 * entry, and reads the row only of entries that pass: with the import's id at the end of each
 * list order's index, a staged entry costs a step of the index instead of a read of the table
 * (the first page sorted newest first beside 20,000 staged rows: 3 ms instead of 30). The same
 * prefix serves the same queries. PostgreSQL is left as it is: its index scan reads each entry's
 * row before it applies a filter, so the column would change nothing there.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  for (const [name, columns, where] of INDEXES) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
    await sql`create index ${sql.id(name)} on products (${sql.raw(columns)}, import_id)${sql.raw(
      where ? ` where ${where}` : '',
    )}`.execute(db);
  }
}
