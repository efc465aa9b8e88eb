/**
 * The databases of `npm run bench:scale` and `npm run bench:scale-beside`: a fresh one per engine,
 * and a catalogue seeded into it through the data layer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/infra/db/open.js';
import { freshPostgresDatabase } from '../tests/server/support/build.js';
import { seedReportCatalogue } from '../tests/server/support/report-seed.js';
import { seedWideCount } from './scale-counts.js';
import { seedLocations } from './scale-locations.js';
import { serverEnv, UNTHROTTLED } from './server-env.js';
import { seedUser } from './seed.js';

const POSTGRES = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Stock movements of every catalogue measured: its products' creations, then more. */
const MOVEMENTS = 100_000;

/**
 * A fresh database of the engine (on PostgreSQL, a copy of `template` if given): its environment
 * for the server, and how to drop it.
 */
export async function freshDatabase(engine: string, template?: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-scale-'));
  const postgres =
    engine === 'postgres' ? await freshPostgresDatabase(POSTGRES, template) : undefined;
  const env = {
    ...serverEnv(dataDir, postgres?.url),
    ...UNTHROTTLED,
    // No backups: the first look, a minute after the start, copies the whole SQLite file in
    // the server's process, and every write of the server's own connection restarts the copy.
    // Beside a stock change every 100 ms it used 0.1 to 0.66 of a core for 95 s at 20,000
    // products (1.3 s of CPU on an idle server), charged to whatever request was measured.
    BACKUP_KEEP: '0',
  };
  const sqliteFile = postgres ? undefined : path.join(dataDir, 'stockroom.db');
  const raw: { postgresUrl: string } | { sqliteFile: string } = postgres
    ? { postgresUrl: postgres.url }
    : { sqliteFile: sqliteFile! };
  return {
    env,
    raw,
    sqliteFile,
    drop: async () => {
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A user with a catalogue of `size` products and about MOVEMENTS movements, seeded through the
 * data layer (batched inserts, as the reports' tests seed): what is measured is the requests, not
 * the loading. The seconds it took.
 */
export async function seedCatalogue(env: NodeJS.ProcessEnv, email: string, size: number) {
  const database = await openDatabase(loadConfig(env));
  try {
    const started = performance.now();
    const user = await seedUser(database.db, email);
    await seedReportCatalogue(database, user.id, Date.now(), {
      products: size,
      movements: Math.max(size, MOVEMENTS),
    });
    await seedLocations(database, user.id);
    await seedWideCount(database, user.id, user.id);
    return { user, seconds: (performance.now() - started) / 1000 };
  } finally {
    await database.close();
  }
}
