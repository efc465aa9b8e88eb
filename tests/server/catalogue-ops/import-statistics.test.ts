import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANALYZE_AFTER_ROWS } from '../../../src/server/infra/db/planner-statistics.js';
import { build, type TestServer } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { importCsv } from '../support/products.js';

/** A CSV of `count` new products. */
const newProducts = (count: number) =>
  [
    'name,price,stock,description',
    ...Array.from({ length: count }, (_, i) => `Imported ${i},1.50,${i % 20},Row ${i}`),
  ].join('\r\n');

/** The last time a manual ANALYZE ran on the products table (autovacuum's has a column of its own). */
async function lastAnalyze(server: Awaited<ReturnType<typeof build>>) {
  const { rows } = await sql<{ at: Date | null }>`select last_analyze as at
    from pg_stat_user_tables where relname = 'products'`.execute(server.database.db);
  return rows[0]?.at ?? null;
}

describe.runIf(process.env.TEST_DATABASE_URL)("PostgreSQL's statistics after an import", () => {
  let server: TestServer;
  // In a hook: a suite skipped on this engine still runs its body, but none of its hooks.
  beforeAll(async () => {
    server = await build();
  });

  it('are refreshed by a large import, not by a small one', async () => {
    const user = await signIn(server);
    const small = await importCsv(server, user, newProducts(10));
    expect(small.statusCode).toBe(200);
    // Statistics reach pg_stat_user_tables asynchronously: give a refresh time to show.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await lastAnalyze(server)).toBeNull();

    const large = await importCsv(server, user, newProducts(ANALYZE_AFTER_ROWS));
    expect(large.statusCode).toBe(200);
    await expect.poll(() => lastAnalyze(server), { timeout: 15_000 }).not.toBeNull();
  });
});
