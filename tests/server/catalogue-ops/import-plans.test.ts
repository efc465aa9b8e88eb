import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { build, type TestServer } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { createProduct, importCsv, importCsvOf } from '../support/products.js';

/** New rows imported into an empty database: enough for the tables to grow a hundredfold. */
const ROWS = 3_000;

/**
 * Rows that sequential scans may read during the import: its first batches' plans read the
 * then small tables whole, but none may read a table whole per row once it grew. Planned for
 * the tables nearly empty and kept for the whole import, they read 50,000,000 (about 400,000
 * replanned as the tables double).
 */
const SEQ_READ_MAX = 2_000_000;

/** What the database's statistics count so far: rows inserted into products, rows read whole. */
async function counted(server: Awaited<ReturnType<typeof build>>) {
  const { rows } = await sql<{ inserted: string; read: string }>`select
      coalesce(sum(n_tup_ins) filter (where relname = 'products'), 0) as inserted,
      coalesce(sum(seq_tup_read), 0) as read
    from pg_stat_user_tables`.execute(server.database.db);
  return { inserted: Number(rows[0]!.inserted), read: Number(rows[0]!.read) };
}

describe.runIf(process.env.TEST_DATABASE_URL)('an import into a young PostgreSQL database', () => {
  let server: TestServer;
  // In a hook: a suite skipped on this engine still runs its body, but none of its hooks.
  beforeAll(async () => {
    server = await build();
  });

  it('reads no table whole for each row it writes as the tables grow', async () => {
    const user = await signIn(server);
    // As autovacuum leaves a young database: its tables analyzed while nearly empty.
    await createProduct(server, user, { name: 'Made by hand' });
    await sql`analyze`.execute(server.database.db);
    const before = await counted(server);
    const res = await importCsv(server, user, importCsvOf(ROWS));
    expect(res.statusCode).toBe(200);
    // The import's backend reports its counts once idle: they arrive with its inserts.
    let after = before;
    await expect
      .poll(
        async () => {
          await sql`select pg_stat_clear_snapshot()`.execute(server.database.db);
          after = await counted(server);
          return after.inserted - before.inserted;
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThanOrEqual(ROWS);
    const read = after.read - before.read;
    console.log(`${ROWS} new rows: ${read} rows read by sequential scans`);
    expect(read).toBeLessThan(SEQ_READ_MAX);
  }, 120_000);
});
