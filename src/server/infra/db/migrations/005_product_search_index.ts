import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/*
 * The search key as the app folded it when this migration was written, frozen here (a migration
 * never follows the app's code): compatibility-normalised, accents removed, lower case, each
 * field capped (400 UTF-16 units of a name, 10,000 of a description, never half a surrogate pair).
 */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const capped = (text: string, max: number) =>
  text.length > max && /[\ud800-\udbff]/.test(text[max - 1]!)
    ? text.slice(0, max - 1)
    : text.slice(0, max);
const searchKey = (name: string, description: string) =>
  `${capped(fold(name), 400)}\n${capped(fold(description), 10_000)}`;

const BATCH = 1000;

/**
 * Substring search through an index on both engines (ADR 007), over search keys whose length is
 * now bounded after folding.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  // Keys are recomputed by that fold, which caps each field: rows written before hold
  // uncapped keys (and rows from before migration 002 an ASCII-only fold). Only changed keys are
  // written, in id order and in batches, so a large table is never read whole.
  let after = '';
  for (;;) {
    const { rows } = await sql<{
      id: string;
      name: string;
      description: string;
      search_key: string;
    }>`
      select id, name, description, search_key from products where id > ${after}
      order by id limit ${BATCH}`.execute(db);
    for (const row of rows) {
      const key = searchKey(row.name, row.description);
      if (key !== row.search_key) {
        await sql`update products set search_key = ${key} where id = ${row.id}`.execute(db);
      }
    }
    if (rows.length < BATCH) break;
    after = rows.at(-1)!.id;
  }

  if (dialect === 'postgres') {
    // Both are trusted extensions (PostgreSQL 13+): a database owner may create them. btree_gin
    // puts the owner in the same index, so only the owner's rows holding a query's trigrams are
    // fetched and compared: another catalogue's rows, however many or costly, never are.
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create extension if not exists btree_gin`.execute(db);
    // New rows wait in the index's pending list (at most gin_pending_list_limit, 4 MB by default)
    // until a vacuum or a full list moves them into the index: cheap writes, bounded extra reads.
    await sql`create index products_search_trgm on products
      using gin (owner_id, search_key gin_trgm_ops)`.execute(db);
    return;
  }

  // An index only (external content: the text stays in products.search_key), of every 3-character
  // sequence of the key, compared exactly (the key is folded already). detail=none keeps no
  // positions: the index narrows rows to those holding all of a query's trigrams, and the
  // repository checks the text itself, which costs less per row than FTS5's phrase matching.
  await sql`create virtual table product_search using fts5(
    search_key,
    content = 'products',
    content_rowid = 'rowid',
    tokenize = 'trigram case_sensitive 1',
    detail = none
  )`.execute(db);
  await sql`insert into product_search(product_search) values ('rebuild')`.execute(db);
  // Triggers keep the index in step with every write to products, whoever makes it: the
  // repository, other modules, and the cascade that deletes an owner's rows with the account.
  // Removing an entry needs the exact text it was indexed with: old.search_key.
  await sql`create trigger products_search_insert after insert on products begin
    insert into product_search(rowid, search_key) values (new.rowid, new.search_key);
  end`.execute(db);
  await sql`create trigger products_search_delete after delete on products begin
    insert into product_search(product_search, rowid, search_key)
      values ('delete', old.rowid, old.search_key);
  end`.execute(db);
  await sql`create trigger products_search_update after update of search_key on products
  when new.search_key is not old.search_key begin
    insert into product_search(product_search, rowid, search_key)
      values ('delete', old.rowid, old.search_key);
    insert into product_search(rowid, search_key) values (new.rowid, new.search_key);
  end`.execute(db);
}
