import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * PostgreSQL: the search index moves off the products into a table of their search keys,
 * `search_texts`, kept by triggers as SQLite's FTS5 index is (migration 005). A product's stock is
 * indexed, so a change of it writes a new version of the product's row into every index of the
 * row: each trigram of its name and description went into the search index's pending list again
 * (about 7 ms of a stock change for a 5,000-character description), filling the 64 kB list that
 * the next writer merges (migration 059). Now only a write of the key itself reaches that index.
 *
 * The insert trigger runs once per statement (an import adds 50,000 rows in batches); the update
 * and delete triggers once per row, each a probe of the key's primary key: a plan cached by a
 * connection while the table was small stays right as it grows. Made again from scratch if the
 * migration runs a second time, in the migrations' one transaction under their lock.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const name of ['search_texts_insert', 'search_texts_update', 'search_texts_delete']) {
    await sql`drop trigger if exists ${sql.id(name)} on products`.execute(db);
  }
  await sql`drop table if exists search_texts`.execute(db);
  await sql`create table search_texts (
    product_id text primary key,
    catalogue_id text not null,
    search_key text not null
  )`.execute(db);

  await sql`create or replace function search_texts_insert() returns trigger language plpgsql as $$
    begin
      insert into search_texts (product_id, catalogue_id, search_key)
        select id, catalogue_id, search_key from new_rows;
      return null;
    end $$`.execute(db);
  await sql`create trigger search_texts_insert after insert on products
    referencing new table as new_rows
    for each statement execute function search_texts_insert()`.execute(db);

  await sql`create or replace function search_texts_update() returns trigger language plpgsql as $$
    begin
      update search_texts set search_key = new.search_key where product_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger search_texts_update after update of search_key on products
    for each row when (old.search_key is distinct from new.search_key)
    execute function search_texts_update()`.execute(db);

  await sql`create or replace function search_texts_delete() returns trigger language plpgsql as $$
    begin
      delete from search_texts where product_id = old.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger search_texts_delete after delete on products
    for each row execute function search_texts_delete()`.execute(db);

  // Filled after the triggers exist, in the same transaction: no write lands between them. The
  // index is built once the rows are in, which costs less than adding them one by one.
  await sql`insert into search_texts (product_id, catalogue_id, search_key)
    select id, catalogue_id, search_key from products`.execute(db);
  // The catalogue first (btree_gin), as before: a search fetches only its catalogue's rows that
  // hold the query's trigrams, however many other catalogues hold. The pending list of new
  // entries at its least, 64 kB, for the reasons of migration 059.
  await sql`create index search_texts_trgm on search_texts
    using gin (catalogue_id, search_key gin_trgm_ops) with (gin_pending_list_limit = 64)`.execute(
    db,
  );
  await sql`drop index if exists products_search_trgm`.execute(db);
  await sql`analyze search_texts`.execute(db);
}
