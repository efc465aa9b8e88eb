import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src/server/infra/db/open.js';
import type { Database } from '../../../../src/server/infra/db/schema.js';
import type { DatabaseHandle } from '../../../../src/server/infra/db/handle.js';
import { freshPostgresDatabase } from '../../support/build.js';

/** A write: one more user row, under a fresh id and address. */
const insertUser = (db: Kysely<Database>) => {
  const email = `${randomUUID()}@example.com`;
  return db
    .insertInto('users')
    .values({
      id: randomUUID(),
      name: 'N',
      email,
      password_hash: 'x',
      confirmed: 1,
      created_at: 0,
      updated_at: 0,
    })
    .execute();
};

describe('the content version of the embedded database', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-version-'));
  const database = await openDatabase({ dataDir });
  const otherProcess = await openDatabase({ dataDir });
  afterAll(async () => {
    await database.close();
    await otherProcess.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const countUsers = () =>
    database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .execute();
  const addUser = (db = database.db) => insertUser(db);

  it('stays the same while the database is only read', async () => {
    const before = database.contentVersion();
    await countUsers();
    expect(database.contentVersion()).toBe(before);
  });

  it('moves with a write of its own, before the write commits', async () => {
    const before = database.contentVersion();
    await database.db.transaction().execute(async (trx) => {
      await addUser(trx);
      expect(database.contentVersion()).not.toBe(before);
    });
  });

  it('moves when another connection commits', async () => {
    const before = database.contentVersion();
    await addUser(otherProcess.db);
    expect(database.contentVersion()).not.toBe(before);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the content version of PostgreSQL', () => {
  let postgres: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let dataDir: string;
  let database: DatabaseHandle;
  let otherProcess: DatabaseHandle;
  beforeAll(async () => {
    postgres = await freshPostgresDatabase(process.env.TEST_DATABASE_URL!);
    dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-version-'));
    database = await openDatabase({ databaseUrl: postgres.url, dataDir });
    otherProcess = await openDatabase({ databaseUrl: postgres.url, dataDir });
  });
  afterAll(async () => {
    await database?.close();
    await otherProcess?.close();
    await postgres?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  const addUser = (db: Kysely<Database> = database.db) => insertUser(db);
  /** The version once the notifications of the writes so far have arrived. */
  async function settledVersion() {
    let last: string | null = null;
    for (;;) {
      const version = database.contentVersion();
      if (version !== null && version === last) return version;
      last = version;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('stays the same while the database is only read, raw SQL included', async () => {
    const before = await settledVersion();
    await database.db.selectFrom('users').selectAll().execute();
    await sql`select count(*) from users`.execute(database.db);
    expect(database.contentVersion()).toBe(before);
  });

  it('moves with a write of its own once it commits, before the call returns', async () => {
    let before = await settledVersion();
    await addUser();
    expect(database.contentVersion()).not.toBe(before);

    before = await settledVersion();
    await database.db.transaction().execute(async (trx) => {
      await addUser(trx);
      // Not yet: another connection still reads the old rows, and must not keep them as new.
      expect(database.contentVersion()).toBe(before);
    });
    expect(database.contentVersion()).not.toBe(before);

    before = await settledVersion();
    await sql`update users set name = 'M'`.execute(database.db);
    expect(database.contentVersion()).not.toBe(before);

    before = await settledVersion();
    await database.db
      .with('gone', (db) => db.deleteFrom('users').where('name', '=', 'nobody').returning('id'))
      .selectFrom('gone')
      .selectAll()
      .execute();
    expect(database.contentVersion()).not.toBe(before);
  });

  it('moves within 1 s when another process commits', async () => {
    const before = await settledVersion();
    const started = performance.now();
    await addUser(otherProcess.db);
    while (database.contentVersion() === before) {
      expect(performance.now() - started).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
});
