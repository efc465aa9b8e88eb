import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../../../src/server/infra/db/schema.js';
import {
  migrate,
  migrations,
  type MigrationDialect,
} from '../../../src/server/infra/db/migrate.js';
import { freshPostgresDatabase } from './build.js';

export const testDialect: MigrationDialect = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/**
 * An empty database of the suite's engine (a fresh PostgreSQL database when TEST_DATABASE_URL is
 * set, else an SQLite file in a temp dir), with a direct connection and the options openDatabase
 * takes to open the same one. `drop` removes it all.
 */
export async function emptyDatabase() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-legacy-'));
  const postgres = process.env.TEST_DATABASE_URL
    ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL)
    : undefined;
  const db = new Kysely<Database>({
    dialect: postgres
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: postgres.url, max: 2 }) })
      : new SqliteDialect({ database: new SQLite(path.join(dataDir, 'stockroom.db')) }),
  });
  return {
    db,
    options: { dataDir, databaseUrl: postgres?.url },
    drop: async () => {
      // The test may have closed it already, to open the same database through openDatabase.
      await db.destroy().catch(() => {});
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What the hand-written runner that came before Kysely's Migrator left after applying every
 * migration before `until` (a migration name; all of them when undefined): the tables, and its
 * `schema_migrations` list of what it applied.
 */
export async function migrateAsOldRunner(db: Kysely<Database>, until?: string) {
  const end =
    until === undefined ? migrations.length : migrations.findIndex((m) => m.name === until);
  if (end < 0) throw new Error(`no migration named ${until}`);
  await sql`create table schema_migrations (name text primary key, applied_at text not null)`.execute(
    db,
  );
  // Like the runner: a migration that rebuilds a table on SQLite needs foreign keys off.
  if (testDialect === 'sqlite') await sql`pragma foreign_keys = off`.execute(db);
  for (const migration of migrations.slice(0, end)) {
    await db.transaction().execute(async (trx) => {
      await migration.up(trx as unknown as Kysely<unknown>, testDialect);
      await sql`insert into schema_migrations values (${migration.name}, ${new Date().toISOString()})`.execute(
        trx,
      );
    });
  }
  if (testDialect === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
}

/**
 * Forgets that `name` and every migration after it ran, then migrates: each is applied again to
 * the database as it is (Kysely refuses a gap in the record, so the later ones go too). Returns
 * what it applied and what it should have: `name` and those after it, in order.
 */
export async function migrateAgainFrom(
  db: Kysely<Database>,
  dialect: MigrationDialect,
  name: string,
) {
  const from = migrations.findIndex((m) => m.name === name);
  if (from < 0) throw new Error(`no migration named ${name}`);
  const again = migrations.slice(from).map((m) => m.name);
  await sql`delete from kysely_migration where name in (${sql.join(again)})`.execute(db);
  return { applied: await migrate(db as unknown as Kysely<unknown>, dialect), again };
}
