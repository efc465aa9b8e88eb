import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../../src/server/features/accounts/sessions.js';
import { insertUser } from '../../../../src/server/features/accounts/users.js';
import { openDatabase } from '../../../../src/server/infra/db/open.js';
import type { DatabaseHandle } from '../../../../src/server/infra/db/handle.js';
import { systemClock } from '../../../../src/server/lib/clock.js';
import { freePort, startEntry, waitForOk, type Entry } from '../../support/processes.js';

/**
 * Three server processes on one SQLite file, writing at once. A transaction that reads first and
 * writes later (an edit reads the row it changes) would, if begun as a plain deferred BEGIN, ask to
 * upgrade its read lock while another process writes: SQLite answers that with SQLITE_BUSY at once,
 * without waiting for the busy timeout.
 */
describe.skipIf(process.env.TEST_DATABASE_URL)('several processes on one SQLite file', () => {
  let dataDir: string;
  let direct: DatabaseHandle;
  const entries: Entry[] = [];
  const origins: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-processes-'));
    // Migrated once here, so that the processes start on a ready file.
    direct = await openDatabase({ dataDir });
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      entries.push(
        startEntry({
          PORT: String(port),
          DATA_DIR: dataDir,
          APP_SECRET: 'processes-test-secret-that-is-at-least-32-characters',
          LOG_LEVEL: 'fatal',
          RATE_LIMIT_GENERAL: '100000',
        }),
      );
      origins.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(
      origins.map((origin, i) => waitForOk(`${origin}/api/health`, 20_000, entries[i])),
    );
  }, 60_000);

  afterAll(async () => {
    for (const entry of entries) entry.child.kill('SIGKILL');
    await Promise.all(entries.map((entry) => entry.exited));
    await direct?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers every concurrent write, none with a 5xx', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const userId = await insertUser(
        direct.db,
        { name: `Writer ${i}`, email: `writer${i}@example.com`, passwordHash: 'unused' },
        Date.now(),
      );
      tokens.push(await createSession(direct.db, systemClock, userId));
    }
    const send = async (i: number, method: string, url: string, body: unknown) => {
      const response = await fetch(`${origins[i % 3]}${url}`, {
        method,
        headers: { authorization: `Bearer ${tokens[i % 6]}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        body: (await response.json()) as { product?: { id: string } },
      };
    };
    const created = await Promise.all(
      tokens.map((_, i) =>
        send(i, 'POST', '/api/products', {
          name: `Item ${i}`,
          price: 2,
          stock: 1,
          description: 'x',
        }),
      ),
    );
    const ids = created.map((answer) => answer.body.product!.id);

    // Edits read their row, then write: 180 of them at once across the three processes.
    const answers = await Promise.all(
      Array.from({ length: 180 }, (_, i) =>
        send(i, 'PATCH', `/api/products/${ids[i % 6]}`, { stock: i }),
      ),
    );
    expect(answers.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([]);
  }, 60_000);
});
