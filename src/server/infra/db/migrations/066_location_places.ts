import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';
import {
  postgresTriggers,
  sqliteTriggers,
  TRIGGERS,
  type TriggerSet,
} from './061_location_totals.js';
import { PARTS, productInPart, visible } from './061_location_totals_sql.js';

/**
 * A location's totals keep `places` too: how many stock rows of visible products it and those
 * under it hold (a row at 0 is deleted, so each is a place that holds stock). A count's review
 * says how many places of its scope were never counted: the scope's places less the lines at
 * one of them, a row read instead of every place of a warehouse or of the whole catalogue (at
 * 100,000 products on SQLite, 288,000 rows read on the event loop for each review page).
 *
 * The triggers of migration 061 are made again, each adding a holding's `stock_rows` to
 * `places` as it adds its `units` to `units`, without the trigger of the catalogue's point that
 * migration 065 dropped. Then the column is filled from the holdings and products as they are, in
 * the migrations' one transaction under their lock: no write lands between. May run again.
 */
const TRIGGER_SET: TriggerSet = { places: true, point: false };

async function hasPlaces(db: Kysely<unknown>, dialect: MigrationDialect): Promise<boolean> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql`select 1 from pragma_table_info('location_totals') where name = 'places'`.execute(
          db,
        )
      : await sql`select 1 from information_schema.columns
          where table_schema = current_schema() and table_name = 'location_totals'
            and column_name = 'places'`.execute(db);
  return rows.length > 0;
}

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  for (const [name, table] of TRIGGERS) {
    if (dialect === 'sqlite') await sql.raw(`drop trigger if exists ${name}`).execute(db);
    else {
      await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
      await sql.raw(`drop function if exists ${name}()`).execute(db);
    }
  }
  if (!(await hasPlaces(db, dialect))) {
    await db.schema
      .alterTable('location_totals')
      .addColumn('places', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  if (dialect === 'sqlite') await sqliteTriggers(db, TRIGGER_SET);
  else await postgresTriggers(db, TRIGGER_SET);

  await sql`update location_totals set places = 0`.execute(db);
  await sql`update location_totals set places = d.places
    from (select p.catalogue_id, h.location_id, k.part, sum(h.stock_rows) as places
      from location_holdings h
      join products p on p.id = h.product_id
      join catalogues c on c.id = p.catalogue_id
      join ${sql.raw(PARTS)} k on ${sql.raw(productInPart('k.part', 'p', 'c.reorder_point'))}
      where ${sql.raw(visible('p'))}
      group by p.catalogue_id, h.location_id, k.part) d
    where location_totals.catalogue_id = d.catalogue_id
      and location_totals.location_id = d.location_id and location_totals.part = d.part`.execute(
    db,
  );
}
