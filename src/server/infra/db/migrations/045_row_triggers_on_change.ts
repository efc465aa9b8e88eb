import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Two triggers on products that do work only when a column they follow changed: a rename
 * carries the name key to the product's top-mover windows (migration 041), a change of price
 * restates the catalogue's days at the new price (migration 033).
 *
 * On PostgreSQL they ran once per statement over its transition tables, so every update of
 * products (a stock change, a count posted) paid for them, and the planner, which cannot know
 * how few rows of those tables changed the column, joined them to `product_days` by reading every
 * tenant's days in full (20,000 rows of another catalogue read for a stock change of 500). Row
 * triggers with a WHEN condition fire for the rows that changed the column alone, and each finds
 * its product's rows by key. SQLite's triggers were made that way already: it is left as it is.
 *
 * The body of each is what the statement trigger did for one row; drop and create run in the
 * migration's transaction, so no write falls between the old trigger and the new.
 */

const PARTS = ['value_low', 'value_middle', 'value_high'] as const;

/** cents × units in three parts (16-bit halves multiplied), as migration 033 adds them up. */
function parts(cents: string, units: string): string[] {
  const [c0, c1] = [`(${cents} & 65535)`, `(${cents} >> 16)`];
  const [u0, u1] = [`(${units} & 65535)`, `(${units} >> 16)`];
  return [`${c0} * ${u0}`, `${c0} * ${u1} + ${c1} * ${u0}`, `${c1} * ${u1}`];
}

const PRICE_CHANGE = `update catalogue_days set ${PARTS.map(
  (column) => `${column} = catalogue_days.${column} + d.${column}`,
).join(', ')}
  from (select pd.catalogue_id, pd.day, ${parts('(new.price_cents - old.price_cents)', 'pd.units')
    .map((part, i) => `sum(${part}) as ${PARTS[i]}`)
    .join(', ')}
    from product_days pd where pd.product_id = new.id
    group by pd.catalogue_id, pd.day) d
  where catalogue_days.catalogue_id = d.catalogue_id and catalogue_days.day = d.day;`;

const RENAME = `update product_windows set name_key = new.name_key where product_id = new.id;`;

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  const rowTrigger = async (name: string, column: string, body: string) => {
    await sql`drop trigger if exists ${sql.id(name)} on products`.execute(db);
    await sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql as $$
      begin ${sql.raw(body)} return null; end $$`.execute(db);
    await sql`create trigger ${sql.id(name)} after update of ${sql.id(column)} on products
      for each row when (old.${sql.id(column)} is distinct from new.${sql.id(column)})
      execute function ${sql.id(name)}()`.execute(db);
  };
  await rowTrigger('product_windows_rename', 'name_key', RENAME);
  await rowTrigger('stock_days_price', 'price_cents', PRICE_CHANGE);
}
