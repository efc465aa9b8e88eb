import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../../src/server/features/accounts/sessions.js';
import { insertUser } from '../../../../src/server/features/accounts/users.js';
import { openDatabase } from '../../../../src/server/infra/db/open.js';
import type { DatabaseHandle } from '../../../../src/server/infra/db/handle.js';
import { systemClock } from '../../../../src/server/lib/clock.js';
import { TcpProxy } from '../../../support/tcp-proxy.js';
import { freshPostgresDatabase } from '../../support/build.js';
import { freePort, startEntry, waitForOk, type Entry } from '../../support/processes.js';

const baseUrl = process.env.TEST_DATABASE_URL;

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { message?: unknown; product?: { id: string } };
}

/**
 * The real server process on PostgreSQL, reached through a relay that the test cuts off while
 * requests are in flight: what a database restart under load looks like to the server.
 */
describe.skipIf(!baseUrl)('a PostgreSQL outage under load', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let proxy: TcpProxy;
  let entry: Entry;
  let direct: DatabaseHandle;
  let dataDir: string;
  let origin: string;
  let token: string;

  beforeAll(async () => {
    database = await freshPostgresDatabase(baseUrl!);
    const target = new URL(database.url);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(await proxy.start());
    dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-outage-'));
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    entry = startEntry({
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: proxied.toString(),
      APP_SECRET: 'outage-test-secret-that-is-at-least-32-characters',
      // Warnings and worse: the lost connections are logged, and nothing worse than them.
      LOG_LEVEL: 'warn',
      RATE_LIMIT_GENERAL: '100000',
    });
    await waitForOk(`${origin}/api/ready`, 20_000, entry);
    // Straight to the database (migrated by the server): a confirmed user and a token.
    direct = await openDatabase({ databaseUrl: database.url, dataDir });
    const userId = await insertUser(
      direct.db,
      { name: 'Olga', email: 'olga@example.com', passwordHash: 'unused' },
      Date.now(),
    );
    token = await createSession(direct.db, systemClock, userId);
  }, 60_000);

  afterAll(async () => {
    entry?.child.kill('SIGKILL');
    await entry?.exited;
    await proxy?.stop();
    await direct?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** One request; a connection the server dropped (or a dead server) is status 0. */
  async function call(method: string, url: string, body?: unknown): Promise<Answer> {
    const response = await fetch(`${origin}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    }).catch(() => undefined);
    if (!response) return { status: 0, retryAfter: null, body: {} };
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Answer['body'],
    };
  }

  it('survives, answers 503 with Retry-After meanwhile, serves again, and loses no acknowledged write', async () => {
    const answers: Answer[] = [];
    const acknowledged: string[] = [];
    let load = true;
    let n = 0;
    const worker = async () => {
      while (load && entry.child.exitCode === null) {
        n += 1;
        const answer =
          n % 2 === 0
            ? await call('GET', '/api/products?limit=5')
            : await call('POST', '/api/products', {
                name: `Item ${n}`,
                price: 1.5,
                stock: 3,
                description: 'Written under load',
              });
        answers.push(answer);
        if (answer.status === 201 && answer.body.product) acknowledged.push(answer.body.product.id);
      }
    };
    const workers = Array.from({ length: 8 }, worker);

    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await proxy.cut();
    const outageStarted = answers.length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const duringOutage = answers.slice(outageStarted);
    await proxy.restore();
    const restoredAt = Date.now();
    // Serves again within seconds of the database coming back.
    let back = false;
    while (!back && Date.now() - restoredAt < 10_000) {
      back = (await call('GET', '/api/products?limit=1')).status === 200;
      if (!back) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    load = false;
    await Promise.all(workers);

    expect(entry.child.exitCode).toBeNull();
    expect(back).toBe(true);
    const unavailable = duringOutage.filter((answer) => answer.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const answer of unavailable) {
      expect(typeof answer.body.message).toBe('string');
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    // Nothing but success or "come back later": never a 500.
    expect(answers.filter((answer) => ![200, 201, 503].includes(answer.status))).toEqual([]);
    // The outage is in the log as a warning of a lost connection (the development log's
    // readable line, or pino's JSON entry at level 40).
    const warnings = entry
      .stdout()
      .split('\n')
      .filter((line) => /^\S+ WARN |"level":40/.test(line));
    expect(warnings.some((line) => line.includes('database connection lost'))).toBe(true);

    const stored = new Set(
      (await direct.db.selectFrom('products').select('id').execute()).map((row) => row.id),
    );
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }, 60_000);
});
