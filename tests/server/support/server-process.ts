import { readFile } from 'node:fs/promises';
import { createSession } from '../../../src/server/features/accounts/sessions.js';
import { insertUser } from '../../../src/server/features/accounts/users.js';
import { openDatabase } from '../../../src/server/infra/db/open.js';
import { systemClock } from '../../../src/server/lib/clock.js';
import { freshPostgresDatabase } from './build.js';
import { atFileEnd } from './file-end.js';
import { freePort, startEntry, waitForOk, type Entry } from './processes.js';
import { tempDir } from './temp-dirs.js';

/** A real server process (the entry), on a fresh database, that a test can measure or kill. */
export interface ServerProcess {
  base: string;
  entry: Entry;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Signed-in users, written straight to the database: `Authorization` headers. */
  users(count: number): Promise<{ authorization: string }[]>;
  /** The process's resident memory now and at its peak (VmRSS, VmHWM), in MiB. */
  memory(): Promise<{ rss: number; peak: number }>;
}

/** Starts the entry on a fresh SQLite DATA_DIR, or PostgreSQL with TEST_DATABASE_URL. */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = await tempDir('stockroom-process-');
  const postgres = process.env.TEST_DATABASE_URL
    ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL)
    : undefined;
  const port = await freePort();
  const entry = startEntry({
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_SECRET: 'process-test-secret-that-is-at-least-32-characters',
    LOG_LEVEL: 'warn',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  });
  atFileEnd(async () => {
    if (entry.child.exitCode === null && entry.child.signalCode === null)
      entry.child.kill('SIGKILL');
    await entry.exited;
    await postgres?.drop();
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForOk(`${base}/api/ready`, 45_000, entry);
  const databaseUrl = postgres?.url;
  return {
    base,
    entry,
    dataDir,
    databaseUrl,
    async users(count) {
      const database = await openDatabase({ databaseUrl, dataDir });
      try {
        const headers = [];
        for (let i = 0; i < count; i += 1) {
          const email = `process-${port}-${i}-${Date.now()}@example.com`;
          const id = await insertUser(
            database.db,
            { name: `User ${i}`, email, passwordHash: 'unused' },
            systemClock.now(),
          );
          await database.db
            .updateTable('users')
            .set({ confirmed: 1 })
            .where('id', '=', id)
            .execute();
          headers.push({
            authorization: `Bearer ${await createSession(database.db, systemClock, id)}`,
          });
        }
        return headers;
      } finally {
        await database.close();
      }
    },
    async memory() {
      const status = await readFile(`/proc/${entry.child.pid}/status`, 'utf8');
      const kib = (name: string) =>
        Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
      return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
    },
  };
}

/** A multipart body holding one CSV file in the field `file`, for fetch. */
export async function csvForm(csv: string | Buffer) {
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(Buffer.from(csv))], { type: 'text/csv' }),
    'products.csv',
  );
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}
