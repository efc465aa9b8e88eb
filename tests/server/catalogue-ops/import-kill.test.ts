import { statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { sweepFailedImports } from '../../../src/server/features/products/failed-imports.js';
import { openDatabase } from '../../../src/server/infra/db/open.js';
import { visibleProduct } from '../../../src/server/infra/db/visible-products.js';
import { IMPORT_MAX_ROWS } from '../../../src/shared/constants.js';
import { csvText } from '../support/products.js';
import { csvForm, startServerProcess, type ServerProcess } from '../support/server-process.js';

/** Whether the server has begun writing the import: its transaction is under way. */
async function writing(server: ServerProcess, walBefore: number): Promise<boolean> {
  if (server.databaseUrl) {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and xact_start is not null
            and query ilike 'insert into "products"%'`,
      );
      return rows[0]!.n > 0;
    } finally {
      await client.end();
    }
  }
  // SQLite: the transaction's pages spill into the write-ahead log before it commits.
  const wal = path.join(server.dataDir, 'stockroom.db-wal');
  return statSync(wal, { throwIfNoEntry: false })!.size > walBefore + 4 * 1024 * 1024;
}

/**
 * An import writes every row or none, even when the process dies in the middle of writing them:
 * killed with SIGKILL while it writes, the database shows none of its rows. On PostgreSQL its
 * one transaction left none; on SQLite the rows it staged are invisible until the sweep deletes
 * them, once the import's lease ran out.
 */
describe('an import killed while it writes', async () => {
  const server = await startServerProcess({ RATE_LIMIT_GENERAL: '100000' });
  const [user] = await server.users(1);
  const csv = csvText([
    ['name', 'price', 'stock', 'description'],
    ...Array.from({ length: IMPORT_MAX_ROWS }, (_, i) => [
      `Product ${i}`,
      '1.50',
      '3',
      `Item ${i}`,
    ]),
  ]);
  const form = await csvForm(csv);

  it('leaves nothing behind', async () => {
    const walFile = path.join(server.dataDir, 'stockroom.db-wal');
    const walBefore = statSync(walFile, { throwIfNoEntry: false })?.size ?? 0;
    const answer = fetch(`${server.base}/api/products/import`, {
      method: 'POST',
      headers: { ...user!, ...form.headers },
      body: form.body,
    }).catch((error: unknown) => error);
    const deadline = Date.now() + 60_000;
    while (!(await writing(server, walBefore))) {
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(10);
    }
    server.entry.child.kill('SIGKILL');
    await server.entry.exited;
    // The client saw the connection drop, not an answer.
    expect(await answer).toBeInstanceOf(Error);

    const database = await openDatabase({
      databaseUrl: server.databaseUrl,
      dataDir: server.dataDir,
    });
    try {
      const count = async (table: 'products' | 'stock_movements') =>
        Number(
          (
            await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(
              database.db,
            )
          ).rows[0]!.n,
        );
      const visible = await database.db
        .selectFrom('products')
        .select((eb) => eb.fn.countAll().as('n'))
        .where(visibleProduct())
        .executeTakeFirstOrThrow();
      expect(Number(visible.n)).toBe(0);
      // Past the lease (a minute), the runner's sweep takes what was staged.
      while ((await sweepFailedImports(database, Date.now() + 120_000)) > 0);
      expect(await count('products')).toBe(0);
      expect(await count('stock_movements')).toBe(0);
      expect(await database.db.selectFrom('pending_imports').selectAll().execute()).toEqual([]);
    } finally {
      await database.close();
    }
  }, 120_000);
});
