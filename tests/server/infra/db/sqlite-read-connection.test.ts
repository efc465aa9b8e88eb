import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../../src/server/infra/db/sqlite.js';
import { migrate } from '../../../../src/server/infra/db/migrate.js';
import { withWriterCache } from '../../../../src/server/infra/db/writer-settings.js';
import type { Kysely } from 'kysely';
import { tempDir } from '../../support/temp-dirs.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * SQLite on two connections: a transaction that spans turns of the event loop holds up other
 * writers, never readers, and what readers saw beside it is not taken for current after it.
 */
describe.skipIf(process.env.TEST_DATABASE_URL)('the reading connection', () => {
  // Opened in a hook: a skipped suite's body still runs (on PostgreSQL), its hooks do not.
  let handle: ReturnType<typeof openSqlite>;
  beforeAll(async () => {
    handle = openSqlite(await tempDir());
    await migrate(handle.db as unknown as Kysely<unknown>, 'sqlite');
  });
  const count = async () =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from users`.execute(handle.db)).rows[0]!.n,
    );
  const user = (id: string) =>
    handle.db
      .insertInto('users')
      .values({
        id,
        name: 'A',
        email: `${id}@example.com`,
        password_hash: 'x',
        confirmed: 1,
        created_at: 0,
        updated_at: 0,
      })
      .execute();

  it('answers reads while a transaction holds the writer, from the last committed state', async () => {
    const events: string[] = [];
    let inside!: () => void;
    const open = new Promise<void>((resolve) => (inside = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const transaction = handle.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({
          id: 'in-transaction',
          name: 'B',
          email: 'b@example.com',
          password_hash: 'x',
          confirmed: 1,
          created_at: 0,
          updated_at: 0,
        })
        .execute();
      inside();
      await finished;
      events.push('commit');
    });
    await open;
    const versionBeside = handle.contentVersion();
    expect(await count()).toBe(0);
    events.push('read');
    // Another write waits for the commit, without holding up the event loop.
    const write = user('after').then(() => events.push('write'));
    await turn();
    await turn();
    expect(events).toEqual(['read']);
    finish();
    await transaction;
    await write;
    expect(events).toEqual(['read', 'commit', 'write']);
    expect(await count()).toBe(2);
    // What was read beside the transaction was read under a version that has moved on since.
    expect(handle.contentVersion()).not.toBe(versionBeside);
  });

  it("sets a pragma on the writer, for the connection's later statements", async () => {
    const timeout = await handle.db.connection().execute(async (connection) => {
      await sql`pragma busy_timeout = 1234`.execute(connection);
      // From here on the connection is the writer's: the setting must be there.
      await sql`begin immediate`.execute(connection);
      const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection);
      await sql`rollback`.execute(connection);
      return rows[0]!.timeout;
    });
    expect(timeout).toBe(1234);
    await sql`pragma busy_timeout = 5000`.execute(handle.db);
  });

  it('keeps a large transaction in memory on the writer: a page cache, temporary data', async () => {
    const settings = await handle.db.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      const read = async (pragma: 'cache_size' | 'temp_store') =>
        Object.values((await sql.raw(`pragma ${pragma}`).execute(connection)).rows[0]!)[0];
      const found = { cacheSize: await read('cache_size'), tempStore: await read('temp_store') };
      await sql`rollback`.execute(connection);
      return found;
    });
    // 64 MiB of pages (a negative size is in KiB); temp_store 2 is memory.
    expect(settings).toEqual({ cacheSize: -65536, tempStore: 2 });
  });

  it("shrinks the writer's page cache for a bulk write only, even when it fails", async () => {
    const cacheSize = async (trx: typeof handle.db) =>
      Number(Object.values((await sql`pragma cache_size`.execute(trx)).rows[0]!)[0]);
    const seen = await handle.db.transaction().execute(async (trx) => {
      const during = await withWriterCache(trx, 2048, () => cacheSize(trx));
      const failed = withWriterCache(trx, 1024, () =>
        Promise.reject(new Error('the bulk write failed')),
      );
      await expect(failed).rejects.toThrow('the bulk write failed');
      return { during, after: await cacheSize(trx) };
    });
    expect(seen).toEqual({ during: -2048, after: -65536 });
  });

  it('closes both connections and the checkpointer', async () => {
    await user('last');
    await handle.close();
  });
});
