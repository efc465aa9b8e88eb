import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/server/db/index.js';

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
  const addUser = (db = database.db, email = `${Math.random()}@example.com`) =>
    db
      .insertInto('users')
      .values({
        id: email,
        name: 'N',
        email,
        password_hash: 'x',
        confirmed: 1,
        created_at: 0,
        updated_at: 0,
      })
      .execute();

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
