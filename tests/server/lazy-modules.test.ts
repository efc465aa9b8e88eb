import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from './support/build.js';
import { jpeg } from './support/images.js';
import {
  freePort,
  sessionInDatabaseOf,
  startEntry,
  waitForOk,
  type Entry,
} from './support/processes.js';
import { validFields } from './support/products.js';
import { tempDir } from './support/temp-dirs.js';

/**
 * Libraries that only some requests need, each with what first needs it. Start-up must not load
 * them: a server that answers its first request has paid for none of these.
 */
const LOADED_ON_FIRST_USE = {
  sharp: 'an upload',
  '@aws-sdk/client-s3': 'an image request with S3_BUCKET set',
  ioredis: 'REDIS_URL (unset here)',
  nodemailer: 'the first mail sent over SMTP',
  '@fastify/swagger-ui': 'API_DOCS (off in production)',
  '@node-rs/argon2': 'a sign-up, login or password change',
  '@simplewebauthn/server': 'a passkey request',
  otpauth: 'a two-factor code',
};

/** The packages among the trace's URLs. */
function packagesIn(trace: string): Set<string> {
  const names = trace
    .split('\n')
    .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    .filter((name): name is string => name !== undefined);
  return new Set(names);
}

// Starts Node with tsx: seconds on a busy machine.
describe('what the production server loads at start-up', { timeout: 90_000 }, () => {
  let entry: Entry | undefined;
  let postgres: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  afterAll(async () => {
    if (entry && entry.child.exitCode === null) entry.child.kill('SIGKILL');
    await entry?.exited;
    await postgres?.drop();
  });

  it('answers a signed-in list without the libraries of other requests, which load on first use', async () => {
    const dataDir = await tempDir('stockroom-lazy-');
    const traceFile = path.join(dataDir, 'modules.txt');
    postgres = process.env.TEST_DATABASE_URL
      ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL)
      : undefined;
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    entry = startEntry(
      {
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: origin,
        APP_SECRET: 's'.repeat(32),
        LOG_LEVEL: 'warn',
        // Configured, so the transport is made; nothing is sent, so nodemailer must not load.
        SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
        MODULE_TRACE_FILE: traceFile,
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      },
      ['./tests/server/support/module-trace.ts'],
    );
    await waitForOk(`${origin}/api/health`, 60_000, entry);

    const token = await sessionInDatabaseOf(
      { dataDir, databaseUrl: postgres?.url },
      'lazy@example.com',
    );
    const auth = { authorization: `Bearer ${token}` };
    const list = await fetch(`${origin}/api/products?limit=50`, { headers: auth });
    expect(list.status).toBe(200);

    const atStart = packagesIn(await readFile(traceFile, 'utf8'));
    expect(atStart.has('fastify'), 'the trace records packages').toBe(true);
    const loaded = Object.keys(LOADED_ON_FIRST_USE).filter((name) => atStart.has(name));
    expect(loaded, 'loaded before their first use').toEqual([]);
    // Only the database engine in use.
    expect(atStart.has(postgres ? 'better-sqlite3' : 'pg')).toBe(false);

    // First uses: an upload loads sharp; a login (refused: no such account) argon2.
    const form = new FormData();
    for (const [name, value] of Object.entries(validFields)) form.append(name, value);
    form.append('image', new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' }), 'a.jpg');
    const created = await fetch(`${origin}/api/products`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(created.status).toBe(201);
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }),
    });
    expect(login.status).toBe(400);
    const afterUse = packagesIn(await readFile(traceFile, 'utf8'));
    expect(afterUse.has('sharp')).toBe(true);
    expect(afterUse.has('@node-rs/argon2')).toBe(true);
  });
});
