import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src/server/infra/db/open.js';
import type { Database } from '../../../../src/server/infra/db/schema.js';
import { migrate, migrations } from '../../../../src/server/infra/db/migrate.js';
import {
  emptyDatabase as emptyTestDatabase,
  migrateAsOldRunner,
  testDialect as dialect,
} from '../../support/legacy-database.js';
const names = migrations.map((migration) => migration.name);

/**
 * Databases migrated by the hand-written runner that came before Kysely's Migrator: its
 * `schema_migrations` table lists what it applied. Started with the new code they must not run
 * those migrations again (they would fail: the tables exist), only the ones that came later.
 */
describe('a database the old migration runner migrated', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function emptyDatabase() {
    const database = await emptyTestDatabase();
    cleanups.push(database.drop);
    return database;
  }

  /** What the old runner left after applying the first `count` migrations, and a user row. */
  async function migratedByOldRunner(db: Kysely<Database>, count: number) {
    await migrateAsOldRunner(db, names[count]);
    await db
      .insertInto('users')
      .values({
        id: 'u1',
        name: 'Kept',
        email: 'kept@example.com',
        password_hash: 'x',
        confirmed: 1,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
  }

  const recorded = async (db: Kysely<Database>) =>
    (
      await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
    ).rows.map((row) => row.name);

  it('fully migrated: starts without running anything again, and records every migration', async () => {
    const { db, options } = await emptyDatabase();
    await migratedByOldRunner(db, migrations.length);
    await db.destroy();

    const handle = await openDatabase(options);
    try {
      expect(await recorded(handle.db)).toEqual(names);
      expect(await migrate(handle.db as unknown as Kysely<unknown>, handle.dialect)).toEqual([]);
      expect(await handle.db.selectFrom('users').select('name').execute()).toEqual([
        { name: 'Kept' },
      ]);
    } finally {
      await handle.close();
    }
  });

  it('migrated part of the way: runs only the migrations that came later', async () => {
    const { db, options } = await emptyDatabase();
    const done = names.indexOf('004_product_image_key') + 1;
    await migratedByOldRunner(db, done);
    expect(await migrate(db as unknown as Kysely<unknown>, dialect)).toEqual(names.slice(done));
    await db.destroy();

    const handle = await openDatabase(options);
    try {
      expect(await recorded(handle.db)).toEqual(names);
      expect(await handle.db.selectFrom('users').select('name').execute()).toEqual([
        { name: 'Kept' },
      ]);
    } finally {
      await handle.close();
    }
  });

  it('a new database applies every migration, and a second start none', async () => {
    const { db, options } = await emptyDatabase();
    await db.destroy();
    const handle = await openDatabase(options);
    try {
      expect(await recorded(handle.db)).toEqual(names);
      expect(await migrate(handle.db as unknown as Kysely<unknown>, handle.dialect)).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});
