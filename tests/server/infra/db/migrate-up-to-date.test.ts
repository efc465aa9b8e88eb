import { spawn } from 'node:child_process';
import { sql, type Kysely } from 'kysely';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../../../src/server/infra/db/migrate.js';
import { openDatabase } from '../../../../src/server/infra/db/open.js';
import { freshPostgresDatabase } from '../../support/build.js';
import { tempDir } from '../../support/temp-dirs.js';

/** The engine under test: PostgreSQL with TEST_DATABASE_URL, SQLite otherwise. */
async function database() {
  const dataDir = await tempDir('stockroom-migrate-');
  const postgres = process.env.TEST_DATABASE_URL
    ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL)
    : undefined;
  afterAll(() => postgres?.drop());
  const handle = await openDatabase({ databaseUrl: postgres?.url, dataDir });
  afterAll(() => handle.close());
  return { handle, dataDir, url: postgres?.url };
}

/** How long the lock below is held: a migration that waits for it takes at least this long. */
const HELD_MS = 2_000;

/**
 * Holds what the locked migration step waits for (SQLite's write lock, or the migrations'
 * advisory lock on PostgreSQL) for HELD_MS, then lets it go. On SQLite another process holds it:
 * better-sqlite3 waits for a lock synchronously, so this process could not let it go.
 */
async function holdMigrationLock(
  dataDir: string,
  url: string | undefined,
): Promise<() => Promise<void>> {
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`select pg_advisory_lock(hashtextextended('stockroom-migrations', 0))`);
    const released = new Promise((resolve) => setTimeout(resolve, HELD_MS)).then(() =>
      client.end(),
    );
    return () => released;
  }
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require('better-sqlite3'))(process.argv[1]);
       db.exec('BEGIN IMMEDIATE'); console.log('locked');
       setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, ${HELD_MS});`,
      path.join(dataDir, 'stockroom.db'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve) => holder.stdout.once('data', resolve));
  const exited = new Promise<void>((resolve) => holder.once('exit', () => resolve()));
  return () => exited;
}

/** How long `work` took, in milliseconds. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/**
 * A start on a database with every migration applied reads that without a lock: it neither
 * waits for another instance's lock nor checks every row's foreign keys again.
 */
describe('migrating an up-to-date database', async () => {
  const { handle, dataDir, url } = await database();
  const db = handle.db as unknown as Kysely<unknown>;

  it('takes no lock, and finds nothing to apply', async () => {
    const released = await holdMigrationLock(dataDir, url);
    let applied: string[] | undefined;
    const took = await timed(async () => (applied = await migrate(db, handle.dialect)));
    await released();
    expect(applied).toEqual([]);
    expect(took).toBeLessThan(HELD_MS / 2);
  });

  it('still takes the locked step when a migration is missing from the record', async () => {
    // The last migration, 067_drop_empty_stock_rows, deletes what is left to delete.
    const last = migrations.at(-1)!.name;
    expect(last).toBe('067_drop_empty_stock_rows');
    await sql`delete from kysely_migration where name = ${last}`.execute(db);
    const released = await holdMigrationLock(dataDir, url);
    let applied: string[] | undefined;
    const took = await timed(async () => (applied = await migrate(db, handle.dialect)));
    await released();
    expect(applied).toEqual([last]);
    expect(took).toBeGreaterThan(HELD_MS / 2);
  });
});
