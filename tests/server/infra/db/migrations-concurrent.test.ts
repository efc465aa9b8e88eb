import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshPostgresDatabase } from '../../support/build.js';
import { emptyDatabase, migrateAsOldRunner } from '../../support/legacy-database.js';
import { openDatabase } from '../../../../src/server/infra/db/open.js';
import { freePort, startEntry, waitForOk, type Entry } from '../../support/processes.js';

/**
 * Each round is a real race: with the lock taken out, 13 of 15 rounds on SQLite had an instance
 * exit on a table or column that already existed (at load averages of 7 to 10 on two cores). Three
 * rounds miss a missing lock about once in 400 runs; each round costs three server start-ups.
 */
const ROUNDS = 3;
const INSTANCES = 3;

/**
 * Several instances started at the same moment on one empty database: each one migrates at
 * start-up, and without a lock two of them apply the same migration (duplicate type, column
 * already exists) and exit. Every one must come up, and every migration must be applied once.
 */
async function startTogether(env: Record<string, string>, running: Entry[]) {
  const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
  const entries = ports.map((port) =>
    startEntry({
      ...env,
      PORT: String(port),
      APP_SECRET: 'migrations-test-secret-that-is-at-least-32-characters',
      LOG_LEVEL: 'fatal',
    }),
  );
  running.push(...entries);
  const outcomes = await Promise.allSettled(
    ports.map((port, i) => waitForOk(`http://127.0.0.1:${port}/api/ready`, 45_000, entries[i])),
  );
  const failures = outcomes.flatMap((outcome, i) =>
    outcome.status === 'rejected'
      ? [`instance ${i}: ${String(outcome.reason).split('\n').slice(0, 30).join(' ')}`]
      : [],
  );
  const alive = entries.map((entry) => entry.child.exitCode);
  for (const entry of entries) entry.child.kill('SIGTERM');
  const exits = await Promise.all(entries.map((entry) => entry.exited));
  return { failures, alive, exits };
}

/** What went wrong in a round: an instance that never answered, exited early, or not with 0. */
function describeRound(round: number, result: Awaited<ReturnType<typeof startTogether>>): string[] {
  return [
    ...result.failures.map((failure) => `round ${round}, ${failure}`),
    ...result.alive.flatMap((code, i) =>
      code === null ? [] : [`round ${round}, instance ${i} had exited with ${code}`],
    ),
    ...result.exits.flatMap((code, i) =>
      code === 0 || result.alive[i] !== null
        ? []
        : [`round ${round}, instance ${i} exited with ${code} on SIGTERM`],
    ),
  ];
}

describe('instances starting at once on one empty database', { timeout: 300_000 }, () => {
  const running: Entry[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const entry of running) if (entry.child.exitCode === null) entry.child.kill('SIGKILL');
    await Promise.all(running.map((entry) => entry.exited));
    for (const cleanup of cleanups) await cleanup();
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    `PostgreSQL: ${ROUNDS} rounds of ${INSTANCES} instances all come up`,
    async () => {
      const failures: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const postgres = await freshPostgresDatabase(process.env.TEST_DATABASE_URL!);
        cleanups.push(postgres.drop);
        const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-migrations-'));
        cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
        const result = await startTogether(
          { DATABASE_URL: postgres.url, DATA_DIR: dataDir },
          running,
        );
        failures.push(...describeRound(round, result));
      }
      expect(failures).toEqual([]);
    },
  );

  it.skipIf(process.env.TEST_DATABASE_URL)(
    `SQLite: ${ROUNDS} rounds of ${INSTANCES} processes on one empty DATA_DIR all come up`,
    async () => {
      const failures: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-migrations-'));
        cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
        const result = await startTogether({ DATA_DIR: dataDir }, running);
        failures.push(...describeRound(round, result));
      }
      expect(failures).toEqual([]);
    },
  );

  /**
   * The same race on a database with data that the catalogue migration rebuilds (SQLite) or
   * alters (PostgreSQL): one instance migrates, the others wait, and every row is migrated once.
   */
  it(`${ROUNDS} rounds of ${INSTANCES} instances migrate one database with products`, async () => {
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const { db, options, drop } = await emptyDatabase();
      cleanups.push(drop);
      await migrateAsOldRunner(db, '016_catalogues');
      for (const n of [1, 2, 3]) {
        const id = `00000000-0000-4000-8000-00000000000${n}`;
        await sql`insert into users (id, name, email, password_hash, confirmed, created_at,
            updated_at) values (${id}, 'Someone', ${`u${n}@example.com`}, 'x', 1, 0, 0)`.execute(
          db,
        );
        await sql`insert into products (id, owner_id, name, name_key, description, search_key,
            price_cents, stock, created_at, updated_at)
          values (${id}, ${id}, 'Tray', 'tray', '', 'tray', 1, 1, 0, 0)`.execute(db);
      }
      await db.destroy();
      const env: Record<string, string> = { DATA_DIR: options.dataDir };
      if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
      failures.push(...describeRound(round, await startTogether(env, running)));
      const handle = await openDatabase(options);
      try {
        const counts = await sql<{ catalogues: number; members: number; products: number }>`
          select (select count(*) from catalogues) as catalogues,
            (select count(*) from catalogue_members) as members,
            (select count(*) from products where catalogue_id is not null) as products`.execute(
          handle.db,
        );
        const row = counts.rows[0]!;
        expect([row.catalogues, row.members, row.products].map(Number)).toEqual([3, 3, 3]);
      } finally {
        await handle.close();
      }
    }
    expect(failures).toEqual([]);
  });
});
