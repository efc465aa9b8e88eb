import { sql, type Kysely } from 'kysely';
import { NAME_MAX } from '../../../../shared/constants.js';
import type { MigrationDialect } from '../migrate.js';

/** The tables whose `owner_id` named the user and now names the catalogue. */
const SCOPED_TABLES = ['products', 'stock_movements', 'product_tags', 'live_events'] as const;
/** Tables whose rowid is an implicit one: kept through a rebuild, since FTS rows are keyed by it. */
const IMPLICIT_ROWID = new Set(['products', 'product_tags']);
/** What the migration appends to a user's name for their personal catalogue's. */
const PERSONAL_SUFFIX = "'s catalogue";

/**
 * Shared catalogues. Products and everything kept per catalogue belonged to a user; they now
 * belong to a catalogue, and every user gets a personal one whose id IS the user's id, so no row
 * is rewritten: `owner_id` becomes `catalogue_id` and its foreign key points at `catalogues`.
 * `catalogue_members` says who may use which catalogue in which role (the owner of a personal
 * catalogue is its user). The version that keys cached reads moves from the user to the
 * catalogue, since any member's write changes it. Movements and products learn who made them,
 * and `activity_entries` keeps what was done to a catalogue's products by whom, beyond deletes.
 *
 * On SQLite a foreign key can only change by rebuilding the table; the runner turns foreign keys
 * off around the migrations and checks them all before committing (migrate.ts).
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';

  await db.schema
    .createTable('catalogues')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('personal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', time, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('catalogue_members')
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) =>
      c.notNull().check(sql`role in ('owner', 'admin', 'editor', 'stock', 'viewer')`),
    )
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('catalogue_members_pkey', ['catalogue_id', 'user_id'])
    .execute();
  // "My catalogues", and the cascade from a deleted account.
  await db.schema
    .createIndex('catalogue_members_user')
    .on('catalogue_members')
    .column('user_id')
    .execute();

  // Every user's personal catalogue, named after them within the name's limit, carrying the
  // version their reads were cached under; and its one member, the user as owner.
  const nameRoom = NAME_MAX - PERSONAL_SUFFIX.length;
  await sql`insert into catalogues (id, name, personal, version, created_at, updated_at)
    select id, substr(name, 1, ${sql.lit(nameRoom)}) || ${sql.lit(PERSONAL_SUFFIX)}, 1,
      catalogue_version, created_at, updated_at
    from users`.execute(db);
  await sql`insert into catalogue_members (catalogue_id, user_id, role, created_at)
    select id, id, 'owner', created_at from users`.execute(db);

  if (dialect === 'postgres') {
    for (const table of SCOPED_TABLES) await repointPostgres(db, table);
  } else {
    for (const table of SCOPED_TABLES) await rebuildSqlite(db, table);
  }

  await db.schema
    .alterTable('stock_movements')
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  for (const column of ['created_by', 'updated_by']) {
    await db.schema
      .alterTable('products')
      .addColumn(column, 'text', (c) => c.references('users.id').onDelete('set null'))
      .execute();
  }

  // No foreign key on the product: an entry outlives the product it tells about.
  await db.schema
    .createTable('activity_entries')
    .addColumn('id', serial, (c) => c.primaryKey())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text')
    .addColumn('product_name', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activity_entries_catalogue')
    .on('activity_entries')
    .columns(['catalogue_id', 'id'])
    .execute();

  await db.schema.alterTable('users').dropColumn('catalogue_version').execute();
  await deletePersonalCatalogueWithAccount(db, dialect);

  if (dialect === 'postgres') {
    // Sessions kept in memory carry their personal catalogue's version: a rename, a role change
    // or a removal must reach every instance like a write to products does (migration 008).
    for (const table of ['catalogues', 'catalogue_members']) {
      await sql`
        create trigger ${sql.id(`${table}_notify_change`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function stockroom_notify_change()`.execute(db);
    }
  }
}

/**
 * A personal catalogue goes with its account, as the account's products did when they referred
 * to it: its id is the user's, but no foreign key can say so (shared catalogues' ids are not).
 */
async function deletePersonalCatalogueWithAccount(db: Kysely<unknown>, dialect: MigrationDialect) {
  if (dialect === 'sqlite') {
    await sql`create trigger users_delete_personal_catalogue after delete on users begin
      delete from catalogues where id = old.id and personal = 1;
    end`.execute(db);
    return;
  }
  await sql`
    create or replace function stockroom_delete_personal_catalogue() returns trigger
    language plpgsql as $$
    begin
      delete from catalogues where id = old.id and personal = 1;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger users_delete_personal_catalogue after delete on users
    for each row execute function stockroom_delete_personal_catalogue()`.execute(db);
}

/** PostgreSQL changes a foreign key in place: drop it, rename the column, add the new one. */
async function repointPostgres(db: Kysely<unknown>, table: string) {
  await sql`alter table ${sql.table(table)}
    drop constraint if exists ${sql.id(`${table}_owner_id_fkey`)}`.execute(db);
  await sql`alter table ${sql.table(table)} rename column owner_id to catalogue_id`.execute(db);
  await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_catalogue_id_fkey`)}
    foreign key (catalogue_id) references catalogues (id) on delete cascade`.execute(db);
}

/** `owner_id` as each table declares it: with a foreign key to users, or (product_tags) none. */
const OWNER_COLUMN =
  /"?owner_id"?\s+text\s+not\s+null(?:\s+references\s+"?users"?\s*\(\s*"?id"?\s*\)\s+on\s+delete\s+cascade)?/gi;
const CATALOGUE_COLUMN =
  '"catalogue_id" text not null references "catalogues" ("id") on delete cascade';

/**
 * SQLite's table rebuild (its documented procedure for a schema change ALTER TABLE cannot make):
 * a copy of the table's definition with the new column, every row copied with its rowid (the
 * product search index refers to rows by rowid), the old table dropped and the copy renamed, then
 * its indexes and triggers created again from their stored SQL with the column's new name. An
 * AUTOINCREMENT table keeps its sequence, so no id is ever given twice. Foreign keys are off
 * (the runner's doing), so dropping the table cascades nowhere.
 */
async function rebuildSqlite(db: Kysely<unknown>, table: string) {
  const [{ on }] = (
    await sql<{ on: number }>`select foreign_keys as "on" from pragma_foreign_keys`.execute(db)
  ).rows as [{ on: number }];
  if (on) throw new Error(`Rebuilding ${table} needs foreign keys off`);
  const { rows: objects } = await sql<{ type: string; name: string; sql: string }>`
    select type, name, sql from sqlite_master
    where tbl_name = ${table} and sql is not null order by type = 'table' desc, rowid`.execute(db);
  const [definition, ...dependents] = objects;
  if (definition?.type !== 'table') throw new Error(`No table ${table}`);
  const matches = definition.sql.match(OWNER_COLUMN) ?? [];
  if (matches.length !== 1) throw new Error(`Unexpected definition of ${table}.owner_id`);
  const next = `${table}_next`;
  const created = definition.sql
    .replace(OWNER_COLUMN, CATALOGUE_COLUMN)
    .replace(/^CREATE TABLE\s+("?)\w+\1/i, `CREATE TABLE "${next}"`);
  await sql.raw(created).execute(db);

  const { rows: columns } = await sql<{ name: string }>`
    select name from pragma_table_info(${table}) order by cid`.execute(db);
  const from = columns.map((column) => sql.id(column.name));
  const to = columns.map((column) =>
    sql.id(column.name === 'owner_id' ? 'catalogue_id' : column.name),
  );
  const rowid = IMPLICIT_ROWID.has(table);
  await sql`insert into ${sql.table(next)} (${sql.join(rowid ? [sql`rowid`, ...to] : to)})
    select ${sql.join(rowid ? [sql`rowid`, ...from] : from)} from ${sql.table(table)}`.execute(db);

  const sequence = autoincrement(definition.sql) ? await sequenceOf(db, table) : undefined;
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(next)} rename to ${sql.table(table)}`.execute(db);
  if (sequence !== undefined) {
    // The copy's inserts set its sequence to the largest id kept; the old one may be larger.
    const highest = Math.max(sequence, (await sequenceOf(db, table)) ?? 0);
    await sql`delete from sqlite_sequence where name = ${table}`.execute(db);
    await sql`insert into sqlite_sequence (name, seq) values (${table}, ${highest})`.execute(db);
  }
  for (const dependent of dependents) {
    await sql.raw(dependent.sql.replace(/\bowner_id\b/g, 'catalogue_id')).execute(db);
  }
}

const autoincrement = (definition: string) => /\bautoincrement\b/i.test(definition);

async function sequenceOf(db: Kysely<unknown>, table: string): Promise<number | undefined> {
  const { rows } = await sql<{ seq: number }>`
    select seq from sqlite_sequence where name = ${table}`.execute(db);
  return rows[0]?.seq ?? 0;
}
