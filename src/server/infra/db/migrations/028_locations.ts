import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Locations: a tree per catalogue (a warehouse, an aisle, a shelf, a bin). `name_key` and
 * `code_key` are the name and the code folded to lower case by the app; two unique indexes keep
 * siblings' names and a catalogue's codes apart, which holds when two writes race.
 *
 * Every catalogue has one default location, where stock without a location is: the row whose id
 * is the catalogue's own, named `Main`, with the code `L-` and the first six hex digits of that id.
 * Existing catalogues get theirs here, and a trigger gives one to every catalogue created from now
 * on, whichever code path inserts it (sign-up, a new catalogue, a test's own rows).
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('locations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('parent_id', 'text', (c) => c.references('locations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('code_key', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('locations_catalogue_code')
    .on('locations')
    .columns(['catalogue_id', 'code_key'])
    .unique()
    .execute();
  // Top-level locations have no parent: '' stands for it, since a unique index tells nulls apart.
  await sql`create unique index locations_sibling_name
    on locations (catalogue_id, coalesce(parent_id, ''), name_key)`.execute(db);
  // A location's children: whether it has any, and the subtree a move or a filter walks.
  await db.schema
    .createIndex('locations_parent')
    .on('locations')
    .columns(['catalogue_id', 'parent_id'])
    .execute();

  const code = (id: string, from: number) =>
    `'L-' || upper(substr(replace(${id}, '-', ''), ${from}, 6))`;
  await sql`insert into locations
      (id, catalogue_id, parent_id, name, name_key, code, code_key, created_at, updated_at)
    select id, id, null, 'Main', 'main', ${sql.raw(code('id', 1))}, lower(${sql.raw(code('id', 1))}),
      created_at, created_at
    from catalogues`.execute(db);
  // A code is never a product's SKU or barcode in its catalogue: the rare default whose code is
  // one takes the next six digits of its id instead.
  await sql`update locations set
      code = ${sql.raw(code('id', 7))}, code_key = lower(${sql.raw(code('id', 7))})
    where id = catalogue_id and exists (
      select 1 from products
      where products.catalogue_id = locations.catalogue_id
        and (products.sku_key = locations.code_key or products.barcode_key = locations.code))`.execute(
    db,
  );

  const values = `(new.id, new.id, null, 'Main', 'main', ${code('new.id', 1)},
      lower(${code('new.id', 1)}), new.created_at, new.created_at)`;
  const columns =
    '(id, catalogue_id, parent_id, name, name_key, code, code_key, created_at, updated_at)';
  if (dialect === 'postgres') {
    await sql`create function catalogue_default_location() returns trigger language plpgsql as $$
      begin
        insert into locations ${sql.raw(columns)} values ${sql.raw(values)}
        on conflict do nothing;
        return new;
      end $$`.execute(db);
    await sql`create trigger catalogues_default_location after insert on catalogues
      for each row execute function catalogue_default_location()`.execute(db);
  } else {
    await sql`create trigger catalogues_default_location after insert on catalogues
      begin
        insert or ignore into locations ${sql.raw(columns)} values ${sql.raw(values)};
      end`.execute(db);
  }
}
